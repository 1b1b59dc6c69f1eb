import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  CURRENT_PASSWORD_REQUIRED,
  SAME_EMAIL_MESSAGE,
  waitingForConfirmation,
  WRONG_CURRENT_PASSWORD,
  type AccountProfile,
} from '@shared/account';
import { CODE_LABEL, CODE_REQUIRED, WRONG_CODE } from '@shared/two-factor';
import { renderWithProviders, stubApi } from '@/test/render';
import { EMAIL_TEXT } from '../api/email';
import { EmailSection } from './email-section';
import { findToast } from '@/test/find-toast';

afterEach(() => vi.unstubAllGlobals());

const CURRENT = 'rosa@example.com';
const NEXT = 'rosa.new@example.com';
const PASSWORD = 'Old-Password-1';

const profile = (pending: string | null | undefined = null): AccountProfile => ({
  full_name: 'Rosa Miller',
  about: null,
  email: CURRENT,
  ...(pending === undefined ? {} : { pending_email: pending }),
});

const section = () => screen.getByRole('region', { name: 'Email' });
const newEmail = () => within(section()).getByLabelText('New email');
const password = () => within(section()).getByLabelText('Current password');
const code = () => within(section()).getByLabelText(CODE_LABEL);
const submit = () => within(section()).getByRole('button', { name: 'Change email' });

async function fill(values: { email?: string; pass?: string }) {
  const user = userEvent.setup();
  await screen.findByLabelText('New email');
  if (values.email) await user.type(newEmail(), values.email);
  if (values.pass) await user.type(password(), values.pass);
  await user.click(submit());
  return user;
}

const refusal = (status: number, code: string, message: string) => () => ({ status, body: { code, message } });

describe('EmailSection', () => {
  it('shows the current address and the two fields; nothing is waiting (also when the server says nothing)', async () => {
    stubApi({ 'GET /account/profile': () => ({ body: profile(undefined) }) });
    renderWithProviders(<EmailSection />);
    expect(await within(section()).findByText(CURRENT)).toBeInTheDocument();
    expect(within(section()).getByRole('form', { name: 'Change email' })).toHaveAttribute('novalidate');
    expect(newEmail()).toHaveAttribute('type', 'email');
    expect(newEmail()).toHaveAttribute('autocomplete', 'email');
    expect(password()).toHaveAttribute('type', 'password');
    expect(password()).toHaveAttribute('autocomplete', 'current-password');
    for (const field of [newEmail(), password()]) expect(field).toBeRequired();
    expect(within(section()).queryByLabelText(CODE_LABEL)).toBeNull();
    expect(within(section()).queryByText(/Waiting for confirmation/)).toBeNull();
    expect(within(section()).queryByRole('button', { name: 'Cancel change' })).toBeNull();
  });

  it("asks for the change: sends both fields, toasts, clears them, and shows 'Waiting for confirmation of …' focused", async () => {
    const calls = stubApi({
      'GET /account/profile': () => ({ body: profile() }),
      'POST /account/email': () => ({ status: 202, body: { pending_email: NEXT } }),
    });
    renderWithProviders(<EmailSection />);
    await fill({ email: NEXT, pass: PASSWORD });
    await findToast(EMAIL_TEXT.checkInbox, EMAIL_TEXT.linkSent(NEXT));
    const waiting = await within(section()).findByText(waitingForConfirmation(NEXT));
    await waitFor(() => expect(waiting).toHaveFocus());
    expect(calls.filter((c) => c.method === 'POST').map((c) => [c.path, c.body])).toEqual([
      ['/account/email', { new_email: NEXT, current_password: PASSWORD }],
    ]);
    expect(newEmail()).toHaveValue('');
    expect(password()).toHaveValue('');
    expect(within(section()).getByText(CURRENT)).toBeInTheDocument();
  });

  it("'Cancel change' ends the wait, toasts, and puts the focus on 'New email'", async () => {
    const calls = stubApi({
      'GET /account/profile': () => ({ body: profile(NEXT) }),
      'DELETE /account/email': () => ({ status: 204 }),
    });
    renderWithProviders(<EmailSection />);
    expect(await within(section()).findByText(waitingForConfirmation(NEXT))).toBeInTheDocument();
    await userEvent.setup().click(within(section()).getByRole('button', { name: 'Cancel change' }));
    await findToast(EMAIL_TEXT.cancelled);
    await waitFor(() => expect(within(section()).queryByText(waitingForConfirmation(NEXT))).toBeNull());
    expect(newEmail()).toHaveFocus();
    expect(calls.map((c) => `${c.method} ${c.path}`)).toContain('DELETE /account/email');
  });

  it("with two-factor on, the server's 'code_required' adds 'Authentication code'; sent again with the code", async () => {
    const bodies: unknown[] = [];
    stubApi({
      'GET /account/profile': () => ({ body: profile() }),
      'POST /account/email': ({ body }) => {
        bodies.push(body);
        return (body as { code?: string }).code
          ? { status: 202, body: { pending_email: NEXT } }
          : refusal(400, 'code_required', CODE_REQUIRED)();
      },
    });
    renderWithProviders(<EmailSection />);
    const user = await fill({ email: NEXT, pass: PASSWORD });
    const field = await within(section()).findByLabelText(CODE_LABEL);
    await waitFor(() => expect(field).toHaveFocus());
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAccessibleDescription(CODE_REQUIRED);
    expect(field).toHaveAttribute('autocomplete', 'one-time-code');
    // The other fields keep what was typed.
    expect(newEmail()).toHaveValue(NEXT);

    // Empty, it is refused here without asking the server.
    await user.click(submit());
    await findToast('Validation Error', CODE_REQUIRED);
    expect(bodies).toHaveLength(1);

    await user.type(code(), '123456');
    await user.click(submit());
    expect(await within(section()).findByText(waitingForConfirmation(NEXT))).toBeInTheDocument();
    expect(bodies).toEqual([
      { new_email: NEXT, current_password: PASSWORD },
      { new_email: NEXT, current_password: PASSWORD, code: '123456' },
    ]);
    // Done: the code field goes until the server asks again.
    expect(within(section()).queryByLabelText(CODE_LABEL)).toBeNull();
  });

  it("a wrong code shows under 'Authentication code'", async () => {
    let asked = 0;
    stubApi({
      'GET /account/profile': () => ({ body: profile() }),
      'POST /account/email': () =>
        asked++ === 0 ? refusal(400, 'code_required', CODE_REQUIRED)() : refusal(400, 'wrong_code', WRONG_CODE)(),
    });
    renderWithProviders(<EmailSection />);
    const user = await fill({ email: NEXT, pass: PASSWORD });
    await user.type(await within(section()).findByLabelText(CODE_LABEL), '000000');
    await user.click(submit());
    await waitFor(() => expect(code()).toHaveAccessibleDescription(WRONG_CODE));
    expect(code()).toHaveFocus();
    expect(document.querySelectorAll('[data-sonner-toast]')).toHaveLength(0);
  });

  it.each([
    ['wrong_password', WRONG_CURRENT_PASSWORD, 'Current password'],
    ['validation_error', SAME_EMAIL_MESSAGE, 'New email'],
  ])("the server's %s shows under its field, focused, with no toast", async (errorCode, message, label) => {
    stubApi({
      'GET /account/profile': () => ({ body: profile() }),
      'POST /account/email': refusal(400, errorCode, message),
    });
    renderWithProviders(<EmailSection />);
    await fill({ email: NEXT, pass: PASSWORD });
    const field = within(section()).getByLabelText(label);
    await waitFor(() => expect(field).toHaveAccessibleDescription(message));
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveFocus();
    expect(document.querySelectorAll('[data-sonner-toast]')).toHaveLength(0);
  });

  it.each([
    ['an empty form', {}, 'Email is required', 'New email'],
    ['not an address', { email: 'rosa-at-home', pass: PASSWORD }, 'Invalid email address', 'New email'],
    ['no password', { email: NEXT }, CURRENT_PASSWORD_REQUIRED, 'Current password'],
  ])(
    '%s: the message under the field, a Validation Error toast, focus there, nothing sent',
    async (_, values, message, label) => {
      const calls = stubApi({ 'GET /account/profile': () => ({ body: profile() }) });
      renderWithProviders(<EmailSection />);
      await fill(values);
      await findToast('Validation Error', message);
      const field = within(section()).getByLabelText(label);
      expect(field).toHaveAccessibleDescription(message);
      expect(field).toHaveFocus();
      expect(calls.filter((c) => c.method !== 'GET')).toEqual([]);
    },
  );

  it("too many tries (429) is the usual 'Error' toast with the server's words", async () => {
    const wait = 'Too many attempts. Please try again in 15 minutes.';
    stubApi({
      'GET /account/profile': () => ({ body: profile() }),
      'POST /account/email': refusal(429, 'too_many_requests', wait),
    });
    renderWithProviders(<EmailSection />);
    await fill({ email: NEXT, pass: PASSWORD });
    await findToast('Error', wait);
    expect(submit()).toBeEnabled();
  });

  it('works by keyboard: Tab from the new address to the password to the button, Enter sends', async () => {
    const calls = stubApi({
      'GET /account/profile': () => ({ body: profile() }),
      'POST /account/email': () => ({ status: 202, body: { pending_email: NEXT } }),
    });
    renderWithProviders(<EmailSection />);
    const user = userEvent.setup();
    await user.click(await screen.findByLabelText('New email'));
    await user.keyboard(NEXT);
    await user.tab();
    expect(password()).toHaveFocus();
    await user.keyboard(PASSWORD);
    await user.tab();
    expect(submit()).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(await within(section()).findByText(waitingForConfirmation(NEXT))).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
  });
});
