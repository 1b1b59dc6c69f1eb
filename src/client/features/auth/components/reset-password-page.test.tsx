import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from '@/test/routes';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PASSWORD_UPDATED_TOAST, RESET_LINK_EXPIRED } from '@shared/account';
import { COMMON_PASSWORD_MESSAGE } from '@shared/password-rules';
import { PAGE_PATHS } from '@shared/routes';
import { renderWithProviders, stubApi } from '@/test/render';
import { sessionQueryKey } from '../api/session';
import { NEW_PASSWORD_HINT } from '../lib/new-password';
import { ResetPasswordPage } from './reset-password-page';

afterEach(() => vi.unstubAllGlobals());

const NEW = 'Fresh-Meadow-42';
const VALID = { body: { valid: true } };
const EXPIRED = { status: 400, body: { code: 'reset_link_expired', message: RESET_LINK_EXPIRED } };

const renderAt = (route: string) =>
  renderWithProviders(
    <Routes>
      <Route path={PAGE_PATHS.auth} element={<p>The sign-in page</p>} />
      <Route path={PAGE_PATHS.forgotPassword} element={<p>The forgot-password page</p>} />
      <Route path={PAGE_PATHS.resetPassword} element={<ResetPasswordPage />} />
    </Routes>,
    { route },
  );

const toastTexts = () => [...document.querySelectorAll('[data-sonner-toast]')].map((t) => t.textContent ?? '');
async function findToast(title: string, description?: string) {
  await waitFor(() =>
    expect(toastTexts().some((t) => t.includes(title) && (!description || t.includes(description)))).toBe(true),
  );
}

/** The expired message, its second sentence a link to /auth/forgot-password. */
async function expectExpired() {
  const link = await screen.findByRole('link', { name: 'Ask for a new one' });
  expect(link).toHaveAttribute('href', PAGE_PATHS.forgotPassword);
  expect(link.closest('p')).toHaveTextContent(RESET_LINK_EXPIRED);
  expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
  return link;
}

async function fill(password: string, confirm: string) {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText('New password'), password);
  await user.type(screen.getByLabelText('Confirm new password'), confirm);
  await user.click(screen.getByRole('button', { name: 'Set new password' }));
}

describe('Reset password page', () => {
  it('checks the link, sets the password by keyboard, signs this browser out and opens Sign In with the toast', async () => {
    let answer: () => void = () => {};
    const calls = stubApi({
      'GET /auth/reset-password/check': () => VALID,
      'POST /auth/reset-password': () => new Promise((resolve) => (answer = () => resolve({ status: 204 }))),
    });
    const user = userEvent.setup();
    const { client } = renderAt('/auth/reset-password?token=tok_A-1');
    client.setQueryData(sessionQueryKey, { user: { id: 'u1' }, session: { id: 's1' } });
    expect(screen.getByRole('heading', { level: 1, name: 'Choose a new password' })).toBeVisible();
    expect(screen.getByText('Checking your link...')).toBeVisible();

    // The first field takes the focus; the sign-up hint explains the rules.
    const password = await screen.findByLabelText('New password');
    expect(password).toHaveFocus();
    expect(password).toHaveAccessibleDescription(NEW_PASSWORD_HINT);
    expect(password).toHaveAttribute('autocomplete', 'new-password');
    expect(password).toHaveAttribute('aria-required', 'true');
    await user.keyboard(NEW);
    await user.tab();
    expect(screen.getByLabelText('Confirm new password')).toHaveFocus();
    await user.keyboard(`${NEW}{Enter}`);
    expect(await screen.findByRole('button', { name: 'Saving...' })).toBeDisabled();
    answer();

    expect(await screen.findByText('The sign-in page')).toBeVisible();
    await findToast(PASSWORD_UPDATED_TOAST);
    expect(client.getQueryData(sessionQueryKey)).toEqual({ user: null, session: null });
    expect(calls.map((c) => [c.method, c.path, c.body])).toEqual([
      ['GET', '/auth/reset-password/check?token=tok_A-1', undefined],
      ['POST', '/auth/reset-password', { token: 'tok_A-1', new_password: NEW, confirm_password: NEW }],
    ]);
  });

  it('a link the server no longer accepts says so at once, with a link to ask for a new one', async () => {
    const calls = stubApi({ 'GET /auth/reset-password/check': () => ({ body: { valid: false } }) });
    const user = userEvent.setup();
    renderAt('/auth/reset-password?token=old');
    const link = await expectExpired();
    expect(calls).toHaveLength(1);
    await user.click(link);
    expect(await screen.findByText('The forgot-password page')).toBeVisible();
  });

  it('a link without a token is expired without asking the server', async () => {
    const calls = stubApi({});
    renderAt(PAGE_PATHS.resetPassword);
    await expectExpired();
    expect(calls).toEqual([]);
  });

  it('a token the server refuses outright (400 on the check) is expired too', async () => {
    stubApi({
      'GET /auth/reset-password/check': () => ({
        status: 400,
        body: { code: 'validation_error', message: 'Invalid input' },
      }),
    });
    renderAt('/auth/reset-password?token=x');
    await expectExpired();
  });

  it('a check that fails to reach the server offers Try again', async () => {
    let online = false;
    stubApi({
      'GET /auth/reset-password/check': () => {
        if (!online) throw new TypeError('Failed to fetch');
        return VALID;
      },
    });
    const user = userEvent.setup();
    renderAt('/auth/reset-password?token=tok');
    const retry = await screen.findByRole('button', { name: 'Try again' }, { timeout: 5000 });
    expect(screen.getByRole('alert')).toHaveTextContent("We couldn't check your link.");
    online = true;
    await user.click(retry);
    expect(await screen.findByLabelText('New password')).toBeVisible();
  });

  it.each([
    ['passwords that differ', NEW, `${NEW}x`, 'Passwords do not match', 'Confirm new password'],
    ['a common password', 'Password123!', 'Password123!', COMMON_PASSWORD_MESSAGE, 'New password'],
    ['a short password', 'Abc123!', 'Abc123!', 'Password must be at least 12 characters', 'New password'],
    [
      'a password without a number',
      'Fresh-Meadow-x',
      'Fresh-Meadow-x',
      'Password must contain at least one number',
      'New password',
    ],
  ])('%s: Validation Error toast, inline alert, focus, no request', async (_l, password, confirm, message, label) => {
    const calls = stubApi({ 'GET /auth/reset-password/check': () => VALID });
    renderAt('/auth/reset-password?token=tok');
    await fill(password, confirm);
    await findToast('Validation Error', message);
    expect(screen.getByRole('alert')).toHaveTextContent(message);
    expect(screen.getByLabelText(label)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText(label)).toHaveFocus();
    expect(calls.map((c) => c.method)).toEqual(['GET']);
  });

  it('a link that expired while the form was open: the message replaces the form and takes the focus', async () => {
    stubApi({ 'GET /auth/reset-password/check': () => VALID, 'POST /auth/reset-password': () => EXPIRED });
    renderAt('/auth/reset-password?token=tok');
    await fill(NEW, NEW);
    const link = await expectExpired();
    expect(link.closest('p')).toHaveFocus();
    // Said on the page, not as a toast.
    expect(toastTexts().some((t) => t.includes(RESET_LINK_EXPIRED))).toBe(false);
  });

  it.each([
    [429, { code: 'too_many_requests', message: 'Too many attempts. Please try again in 5 minutes.' }, 'Error'],
    [400, { code: 'validation_error', message: COMMON_PASSWORD_MESSAGE }, 'Validation Error'],
    [500, { code: 'internal_error', message: 'Something went wrong on our side. Please try again.' }, 'Error'],
  ])("a %i keeps the form as typed and toasts the server's message", async (status, body, title) => {
    stubApi({ 'GET /auth/reset-password/check': () => VALID, 'POST /auth/reset-password': () => ({ status, body }) });
    renderAt('/auth/reset-password?token=tok');
    await fill(NEW, NEW);
    await findToast(title, body.message);
    expect(screen.getByLabelText('New password')).toHaveValue(NEW);
    expect(screen.getByRole('button', { name: 'Set new password' })).toBeEnabled();
    expect(screen.queryByText('The sign-in page')).not.toBeInTheDocument();
  });
});
