import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from '@/test/routes';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FORGOT_PASSWORD_ANSWER } from '@shared/account';
import { PAGE_PATHS } from '@shared/routes';
import { renderWithProviders, stubApi } from '@/test/render';
import { ForgotPasswordPage } from './forgot-password-page';
import { SignInForm } from './sign-in-form';

afterEach(() => vi.unstubAllGlobals());

const ANSWER = { body: { message: FORGOT_PASSWORD_ANSWER } };

const renderAt = (route: string) =>
  renderWithProviders(
    <Routes>
      <Route path={PAGE_PATHS.auth} element={<SignInForm onSignedIn={vi.fn()} />} />
      <Route path={PAGE_PATHS.forgotPassword} element={<ForgotPasswordPage />} />
    </Routes>,
    { route },
  );

const toastTexts = () => [...document.querySelectorAll('[data-sonner-toast]')].map((t) => t.textContent ?? '');
async function findToast(title: string, description: string) {
  await waitFor(() => expect(toastTexts().some((t) => t.includes(title) && t.includes(description))).toBe(true));
}

describe("Sign In tab's 'Forgot password?' link", () => {
  it('is reached by keyboard after the password and takes the typed e-mail along', async () => {
    const calls = stubApi({});
    const user = userEvent.setup();
    renderAt(PAGE_PATHS.auth);
    const link = screen.getByRole('link', { name: 'Forgot password?' });
    expect(link).toHaveAttribute('href', PAGE_PATHS.forgotPassword);
    // Not in the address: router state only.
    expect(link.getAttribute('href')).not.toContain('@');

    await user.click(screen.getByLabelText('Email'));
    await user.keyboard(' ann@example.com ');
    await user.tab();
    expect(screen.getByLabelText('Password')).toHaveFocus();
    await user.tab();
    expect(link).toHaveFocus();
    await user.keyboard('{Enter}');

    expect(await screen.findByRole('heading', { level: 1, name: 'Forgot password?' })).toBeVisible();
    expect(screen.getByLabelText('Email')).toHaveValue('ann@example.com');
    expect(calls).toEqual([]);
  });

  it('opens the form empty when no e-mail was typed', async () => {
    stubApi({});
    const user = userEvent.setup();
    renderAt(PAGE_PATHS.auth);
    await user.click(screen.getByRole('link', { name: 'Forgot password?' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Forgot password?' })).toBeVisible();
    expect(screen.getByLabelText('Email')).toHaveValue('');
  });
});

describe('Forgot password page', () => {
  it("sends the e-mail, shows 'Sending...' meanwhile, then the server's answer, and can send again", async () => {
    let answer: () => void = () => {};
    const calls = stubApi({
      'POST /auth/forgot-password': () => new Promise((resolve) => (answer = () => resolve(ANSWER))),
    });
    const user = userEvent.setup();
    renderAt(PAGE_PATHS.forgotPassword);
    expect(screen.getByText(/we will send you a link to choose a new password/)).toBeVisible();
    const status = screen.getByRole('status');
    expect(status).toBeEmptyDOMElement();

    // All by keyboard: type, then Enter submits.
    await user.click(screen.getByLabelText('Email'));
    await user.keyboard(' ann@example.com {Enter}');
    const busy = await screen.findByRole('button', { name: 'Sending...' });
    expect(busy).toBeDisabled();
    answer();
    await waitFor(() => expect(status).toHaveTextContent(FORGOT_PASSWORD_ANSWER));
    expect(calls.map((c) => [c.method, c.path, c.body])).toEqual([
      ['POST', '/auth/forgot-password', { email: 'ann@example.com' }],
    ]);

    // Still usable: another address, another send, the same answer.
    const button = screen.getByRole('button', { name: 'Send reset link' });
    expect(button).toBeEnabled();
    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'bob@example.com');
    await user.click(button);
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(status).toBeEmptyDOMElement();
    answer();
    await waitFor(() => expect(status).toHaveTextContent(FORGOT_PASSWORD_ANSWER));
    expect(calls[1]?.body).toEqual({ email: 'bob@example.com' });
  });

  it.each([
    ['an empty e-mail', '', 'Email is required'],
    ['an invalid e-mail', 'ann@', 'Invalid email address'],
  ])('%s: Validation Error toast, inline alert, no request', async (_l, email, message) => {
    const calls = stubApi({});
    const user = userEvent.setup();
    renderAt(PAGE_PATHS.forgotPassword);
    expect(screen.getByRole('form', { name: 'Forgot password' })).toHaveAttribute('novalidate');
    if (email) await user.type(screen.getByLabelText('Email'), email);
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    await findToast('Validation Error', message);
    expect(screen.getByRole('alert')).toHaveTextContent(message);
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Email')).toHaveFocus();
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
    expect(calls).toEqual([]);
  });

  it("keeps the server's own attempt-limit message on a 429, and the form usable", async () => {
    stubApi({
      'POST /auth/forgot-password': () => ({
        status: 429,
        body: { code: 'too_many_requests', message: 'Too many attempts. Please try again in 5 minutes.' },
      }),
    });
    const user = userEvent.setup();
    renderAt(PAGE_PATHS.forgotPassword);
    await user.type(screen.getByLabelText('Email'), 'ann@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    await findToast('Error', 'Too many attempts. Please try again in 5 minutes.');
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
    expect(screen.getByRole('button', { name: 'Send reset link' })).toBeEnabled();
    expect(screen.getByLabelText('Email')).toHaveValue('ann@example.com');
  });

  it('says when RuralRoute cannot be reached', async () => {
    stubApi({
      'POST /auth/forgot-password': () => {
        throw new TypeError('Failed to fetch');
      },
    });
    const user = userEvent.setup();
    renderAt(PAGE_PATHS.forgotPassword);
    await user.type(screen.getByLabelText('Email'), 'ann@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    await findToast('Error', 'No connection. Please try again.');
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
  });

  it("'Back to sign in' goes to /auth", async () => {
    stubApi({});
    const user = userEvent.setup();
    renderAt(PAGE_PATHS.forgotPassword);
    const back = screen.getByRole('link', { name: 'Back to sign in' });
    expect(back).toHaveAttribute('href', PAGE_PATHS.auth);
    await user.click(back);
    expect(await screen.findByRole('form', { name: 'Sign in' })).toBeVisible();
  });
});
