import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Toaster } from 'sonner';
import { expect, it, vi } from 'vitest';
import { SignUpForm } from './sign-up-form';

// The common-password list cannot be fetched (a phone offline for a moment, a chunk gone after a deploy).
vi.mock('@shared/common-passwords', () => {
  throw new Error('Failed to fetch dynamically imported module');
});
const fetchMock = vi.fn();
vi.stubGlobal('fetch', fetchMock);

it('without the common-password list the form still checks the spec rules and lets the server decide', async () => {
  fetchMock.mockResolvedValue(
    new Response(
      JSON.stringify({ code: 'validation_error', message: 'This password is too common. Choose another.' }),
      {
        status: 400,
        headers: { 'content-type': 'application/json' },
      },
    ),
  );
  render(
    <QueryClientProvider client={new QueryClient()}>
      <SignUpForm onCreated={vi.fn()} />
      <Toaster />
    </QueryClientProvider>,
  );
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Full Name'), 'Ann');
  await user.type(screen.getByLabelText('Email'), 'ann@example.com');
  await user.type(screen.getByLabelText('Password'), 'short');
  await user.click(screen.getByLabelText('I confirm I am 18 or older'));
  await user.click(screen.getByRole('button', { name: 'Create Account' }));
  await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Password must be at least 12 characters'));
  expect(fetchMock).not.toHaveBeenCalled();

  await user.clear(screen.getByLabelText('Password'));
  await user.type(screen.getByLabelText('Password'), 'Password123!');
  await user.click(screen.getByRole('button', { name: 'Create Account' }));
  await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
  await waitFor(() => {
    const toasts = [...document.querySelectorAll('[data-sonner-toast]')].map((t) => t.textContent ?? '');
    expect(toasts.some((t) => t.includes('Validation Error') && t.includes('too common'))).toBe(true);
  });
});
