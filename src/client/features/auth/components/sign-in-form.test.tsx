import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from '@/lib/router';
import { Toaster } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SignInForm } from './sign-in-form';

// The network is the boundary here: the API itself is tested through real HTTP in the server suite and e2e.
const fetchMock = vi.fn();
vi.stubGlobal('fetch', fetchMock);
afterEach(() => fetchMock.mockReset());

function renderForm(onSignedIn = vi.fn()) {
  render(
    <MemoryRouter>
      <QueryClientProvider client={new QueryClient()}>
        <SignInForm onSignedIn={onSignedIn} />
        <Toaster />
      </QueryClientProvider>
    </MemoryRouter>,
  );
}

async function findToast(title: string, description: string) {
  await waitFor(() => {
    const toasts = [...document.querySelectorAll('[data-sonner-toast]')].map((t) => t.textContent ?? '');
    expect(toasts.some((t) => t.includes(title) && t.includes(description))).toBe(true);
  });
}

async function submit(email: string, password: string) {
  const user = userEvent.setup();
  if (email) await user.type(screen.getByLabelText('Email'), email);
  if (password) await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Sign In' }));
}

describe('SignInForm', () => {
  it('marks both fields required for assistive technology without the browser validating', () => {
    renderForm();
    expect(screen.getByRole('form', { name: 'Sign in' })).toHaveAttribute('novalidate');
    for (const field of [screen.getByLabelText('Email'), screen.getByLabelText('Password')]) {
      expect(field).toHaveAttribute('aria-required', 'true');
      expect(field).not.toHaveAttribute('required');
    }
  });

  it('an empty form shows a Validation Error toast and sends nothing', async () => {
    renderForm();
    await submit('', '');
    await findToast('Validation Error', 'Email is required');
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('makes no other client check: an e-mail without @ goes to the server, which answers', async () => {
    fetchMock.mockResolvedValue(
      new Response(JSON.stringify({ code: 'invalid_credentials', message: 'Invalid email or password.' }), {
        status: 401,
        headers: { 'content-type': 'application/json' },
      }),
    );
    renderForm();
    await submit('ann', 'Whatever-it-is-1');
    await findToast('Error', 'Invalid email or password.');
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it("keeps the server's own attempt-limit message on a 429", async () => {
    fetchMock.mockResolvedValue(
      new Response(
        JSON.stringify({ code: 'too_many_requests', message: 'Too many attempts. Please try again in 5 minutes.' }),
        { status: 429, headers: { 'content-type': 'application/json' } },
      ),
    );
    renderForm();
    await submit('ann@example.com', 'Whatever-it-is-1');
    await findToast('Error', 'Too many attempts. Please try again in 5 minutes.');
  });

  it('a suspended account (403 account_suspended) is told so, like a wrong password', async () => {
    fetchMock.mockResolvedValue(
      new Response(
        JSON.stringify({ code: 'account_suspended', message: 'This account is suspended. Contact support.' }),
        { status: 403, headers: { 'content-type': 'application/json' } },
      ),
    );
    renderForm();
    await submit('ann@example.com', 'Whatever-it-is-1');
    await findToast('Error', 'This account is suspended. Contact support.');
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeEnabled();
  });
});
