import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Toaster } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SignUpForm } from './sign-up-form';

// The network is the boundary here: the API itself is tested through real HTTP in the server suite and e2e.
const fetchMock = vi.fn();
vi.stubGlobal('fetch', fetchMock);
afterEach(() => fetchMock.mockReset());

function renderForm(onCreated = vi.fn()) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <SignUpForm onCreated={onCreated} />
      <Toaster />
    </QueryClientProvider>,
  );
  return onCreated;
}

/** Sonner keeps toasts in a module-wide store, so look for the toast carrying both the title and the text. */
async function findToast(title: string, description: string) {
  await waitFor(() => {
    const toasts = [...document.querySelectorAll('[data-sonner-toast]')].map((t) => t.textContent ?? '');
    expect(toasts.some((t) => t.includes(title) && t.includes(description))).toBe(true);
  });
}

async function fill(values: { name?: string; email?: string; password?: string; age?: boolean }) {
  const user = userEvent.setup();
  if (values.name) await user.type(screen.getByLabelText('Full Name'), values.name);
  if (values.email) await user.type(screen.getByLabelText('Email'), values.email);
  if (values.password) await user.type(screen.getByLabelText('Password'), values.password);
  if (values.age) await user.click(screen.getByLabelText('I confirm I am 18 or older'));
  await user.click(screen.getByRole('button', { name: 'Create Account' }));
}

describe('SignUpForm', () => {
  it('keeps the spec input attributes: all required, password minimum 12', () => {
    renderForm();
    expect(screen.getByLabelText('Full Name')).toBeRequired();
    expect(screen.getByLabelText('Email')).toBeRequired();
    expect(screen.getByLabelText('Password')).toHaveAttribute('minLength', '12');
  });

  it('shows the first failing rule as a Validation Error toast and inline, without calling the server', async () => {
    renderForm();
    await fill({ name: 'Ann', email: 'ann@example.com', password: 'alllowercase1!', age: true });
    await findToast('Validation Error', 'Password must contain at least one uppercase letter');
    expect(screen.getByRole('alert')).toHaveTextContent('Password must contain at least one uppercase letter');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('requires the 18+ confirmation', async () => {
    renderForm();
    await fill({ name: 'Ann', email: 'ann@example.com', password: 'Abcdefgh123!' });
    await findToast('Validation Error', 'You must confirm you are 18 or older');
    expect(screen.getByRole('alert')).toHaveTextContent('You must confirm you are 18 or older');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends the trimmed form, shows the success toast and hands back the email', async () => {
    fetchMock.mockResolvedValue(
      new Response(JSON.stringify({ user: { id: crypto.randomUUID(), email: 'ann@example.com', full_name: 'Ann' } }), {
        status: 201,
        headers: { 'content-type': 'application/json' },
      }),
    );
    const onCreated = renderForm();
    await fill({ name: ' Ann ', email: 'ann@example.com', password: 'Abcdefgh123!', age: true });
    await waitFor(() => expect(onCreated).toHaveBeenCalledWith('ann@example.com'));
    await findToast('Success!', 'Account created successfully. You can now sign in.');
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/auth/sign-up');
    expect(JSON.parse(init.body as string)).toEqual({
      email: 'ann@example.com',
      password: 'Abcdefgh123!',
      full_name: 'Ann',
      age_confirmed: true,
    });
  });

  it("shows the server's message in an Error toast", async () => {
    fetchMock.mockResolvedValue(
      new Response(JSON.stringify({ code: 'email_taken', message: 'An account with this email already exists.' }), {
        status: 409,
        headers: { 'content-type': 'application/json' },
      }),
    );
    renderForm();
    await fill({ name: 'Ann', email: 'ann@example.com', password: 'Abcdefgh123!', age: true });
    await findToast('Error', 'An account with this email already exists.');
  });
});
