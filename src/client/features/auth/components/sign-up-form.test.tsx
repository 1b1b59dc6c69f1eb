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

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const VALID = { name: 'Ann', email: 'ann@example.com', password: 'Abcdefgh123!', age: true };

async function fill(values: { name?: string; email?: string; password?: string; age?: boolean }) {
  const user = userEvent.setup();
  if (values.name) await user.type(screen.getByLabelText('Full Name'), values.name);
  if (values.email) await user.type(screen.getByLabelText('Email'), values.email);
  if (values.password) await user.type(screen.getByLabelText('Password'), values.password);
  if (values.age) await user.click(screen.getByLabelText('I confirm I am 18 or older'));
  await user.click(screen.getByRole('button', { name: 'Create Account' }));
}

describe('SignUpForm', () => {
  it('keeps the spec input attributes without handing validation to the browser', () => {
    renderForm();
    const form = screen.getByRole('form', { name: 'Sign up' });
    // noValidate: the browser's own bubbles never stop the submit; the shared schema speaks instead.
    expect(form).toHaveAttribute('novalidate');
    for (const field of [
      screen.getByLabelText('Full Name'),
      screen.getByLabelText('Email'),
      screen.getByLabelText('Password'),
      screen.getByLabelText('I confirm I am 18 or older'),
    ]) {
      // Required for assistive technology, through aria-required rather than the native attribute.
      expect(field).toBeRequired();
      expect(field).toHaveAttribute('aria-required', 'true');
      expect(field).not.toHaveAttribute('required');
    }
    expect(screen.getByLabelText('Password')).toHaveAttribute('minLength', '12');
  });

  it('an empty form shows the first rule (email) as a Validation Error toast, focuses it, sends nothing', async () => {
    renderForm();
    await fill({});
    await findToast('Validation Error', 'Invalid email address');
    const email = screen.getByLabelText('Email');
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveFocus();
    // Every failing field is marked, not only the first.
    expect(screen.getByLabelText('Full Name')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Password')).toHaveAttribute('aria-invalid', 'true');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it.each([
    ['an invalid email', { email: 'ann@' }, 'Invalid email address', 'Email'],
    ['a short password', { password: 'Abc123!' }, 'Password must be at least 12 characters', 'Password'],
    [
      'a password without an uppercase letter',
      { password: 'alllowercase1!' },
      'Password must contain at least one uppercase letter',
      'Password',
    ],
    ['an empty full name', { name: '' }, 'Full name is required', 'Full Name'],
  ])(
    '%s: Validation Error toast with its message, inline alert, focus, no request',
    async (_l, patch, message, label) => {
      renderForm();
      await fill({ ...VALID, ...patch });
      await findToast('Validation Error', message);
      expect(screen.getByRole('alert')).toHaveTextContent(message);
      expect(screen.getByLabelText(label)).toHaveAttribute('aria-invalid', 'true');
      expect(screen.getByLabelText(label)).toHaveFocus();
      expect(fetchMock).not.toHaveBeenCalled();
    },
  );

  it("a common password is the server's answer: Validation Error toast, inline alert, focus; no list downloaded", async () => {
    const message = 'This password is too common. Choose another.';
    fetchMock.mockResolvedValue(json(400, { code: 'validation_error', message }));
    const onCreated = renderForm();
    await fill({ ...VALID, password: 'Password123!' });
    await findToast('Validation Error', message);
    expect(screen.getByRole('alert')).toHaveTextContent(message);
    const password = screen.getByLabelText('Password');
    expect(password).toHaveAttribute('aria-invalid', 'true');
    expect(password).toHaveAccessibleDescription(message);
    expect(password).toHaveFocus();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(onCreated).not.toHaveBeenCalled();
  });

  it('requires the 18+ confirmation', async () => {
    renderForm();
    await fill({ ...VALID, age: false });
    await findToast('Validation Error', 'You must be 18 or older to use RuralRoute.');
    expect(screen.getByRole('alert')).toHaveTextContent('You must be 18 or older to use RuralRoute.');
    const age = screen.getByLabelText('I confirm I am 18 or older');
    expect(age).toHaveAttribute('aria-invalid', 'true');
    expect(age).toHaveFocus();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends the trimmed form, shows the success toast and hands back the email', async () => {
    fetchMock.mockResolvedValue(
      json(201, { user: { id: crypto.randomUUID(), email: 'ann@example.com', full_name: 'Ann' } }),
    );
    const onCreated = renderForm();
    await fill({ ...VALID, name: ' Ann ' });
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
      json(409, { code: 'email_taken', message: 'An account with this email already exists.' }),
    );
    renderForm();
    await fill(VALID);
    await findToast('Error', 'An account with this email already exists.');
  });

  it("shows the server's validation failure under the spec's 'Validation Error' title", async () => {
    fetchMock.mockResolvedValue(
      json(400, { code: 'validation_error', message: 'This password is too common. Choose another.' }),
    );
    renderForm();
    await fill(VALID);
    await findToast('Validation Error', 'This password is too common. Choose another.');
  });

  it("keeps the server's own attempt-limit message on a 429", async () => {
    fetchMock.mockResolvedValue(
      json(429, { code: 'too_many_requests', message: 'Too many attempts. Please try again in 5 minutes.' }),
    );
    renderForm();
    await fill(VALID);
    await findToast('Error', 'Too many attempts. Please try again in 5 minutes.');
  });
});
