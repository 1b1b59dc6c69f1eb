import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PASSWORDS_DO_NOT_MATCH, WRONG_CURRENT_PASSWORD } from '@shared/account';
import { COMMON_PASSWORD_MESSAGE } from '@shared/password-rules';
import { CODE_LABEL, CODE_REQUIRED, WRONG_CODE } from '@shared/two-factor';
import { NEW_PASSWORD_HINT } from '@/features/auth';
import { renderWithProviders, stubApi } from '@/test/render';
import { findToast } from '@/test/find-toast';
import { PasswordSection } from './password-section';

afterEach(() => vi.unstubAllGlobals());

const OLD = 'Old-Password-1';
const NEW = 'Quiet-Meadow-42';

const section = () => screen.getByRole('region', { name: 'Password' });
const current = () => within(section()).getByLabelText('Current password');
const fresh = () => within(section()).getByLabelText('New password');
const confirm = () => within(section()).getByLabelText('Confirm new password');
const submit = () => within(section()).getByRole('button', { name: 'Change password' });

async function fill(values: { current?: string; next?: string; again?: string }) {
  const user = userEvent.setup();
  if (values.current) await user.type(current(), values.current);
  if (values.next) await user.type(fresh(), values.next);
  if (values.again) await user.type(confirm(), values.again);
  await user.click(submit());
  return user;
}

describe('PasswordSection', () => {
  it('has the three password fields, the rules in plain words under the new one, and no browser validation', () => {
    stubApi({});
    renderWithProviders(<PasswordSection />);
    expect(within(section()).getByRole('form', { name: 'Change password' })).toHaveAttribute('novalidate');
    for (const field of [current(), fresh(), confirm()]) {
      expect(field).toHaveAttribute('type', 'password');
      expect(field).toBeRequired();
    }
    expect(current()).toHaveAttribute('autocomplete', 'current-password');
    expect(fresh()).toHaveAttribute('autocomplete', 'new-password');
    expect(fresh()).toHaveAccessibleDescription(NEW_PASSWORD_HINT);
  });

  it("changes the password: sends the three fields, toasts 'Password changed', clears the fields", async () => {
    const calls = stubApi({ 'POST /account/password': () => ({ status: 204 }) });
    renderWithProviders(<PasswordSection />);
    await fill({ current: OLD, next: NEW, again: NEW });
    await findToast('Password changed');
    expect(calls.map((c) => [c.method, c.path, c.body])).toEqual([
      ['POST', '/account/password', { current_password: OLD, new_password: NEW, confirm_password: NEW }],
    ]);
    for (const field of [current(), fresh(), confirm()]) expect(field).toHaveValue('');
  });

  it.each([
    ['an empty form', {}, 'Current password is required', 'Current password'],
    [
      'a short new password',
      { current: OLD, next: 'Abc1!', again: 'Abc1!' },
      'Password must be at least 12 characters',
      'New password',
    ],
    [
      'a common new password',
      { current: OLD, next: 'Password123!', again: 'Password123!' },
      COMMON_PASSWORD_MESSAGE,
      'New password',
    ],
    [
      'a different confirmation',
      { current: OLD, next: NEW, again: `${NEW}x` },
      PASSWORDS_DO_NOT_MATCH,
      'Confirm new password',
    ],
  ])(
    '%s: the message under the field, a Validation Error toast, focus there, nothing sent',
    async (_, values, message, label) => {
      const calls = stubApi({});
      renderWithProviders(<PasswordSection />);
      await fill(values);
      await findToast('Validation Error', message);
      const field = within(section()).getByLabelText(label);
      expect(field).toHaveAttribute('aria-invalid', 'true');
      expect(field).toHaveAccessibleDescription(message);
      expect(field).toHaveFocus();
      expect(calls).toEqual([]);
    },
  );

  it("a wrong current password (the server's 'wrong_password') shows under 'Current password' and keeps the rest", async () => {
    stubApi({
      'POST /account/password': () => ({
        status: 400,
        body: { code: 'wrong_password', message: WRONG_CURRENT_PASSWORD },
      }),
    });
    renderWithProviders(<PasswordSection />);
    await fill({ current: 'Not-It-000', next: NEW, again: NEW });
    expect(await within(section()).findByRole('alert')).toHaveTextContent(WRONG_CURRENT_PASSWORD);
    expect(current()).toHaveAttribute('aria-invalid', 'true');
    expect(current()).toHaveAccessibleDescription(WRONG_CURRENT_PASSWORD);
    expect(current()).toHaveFocus();
    expect(fresh()).toHaveValue(NEW);
    expect(document.querySelectorAll('[data-sonner-toast]')).toHaveLength(0);
  });

  it("with two-factor on and no recent check ('code_required'), asks for the code and sends the form again with it", async () => {
    const calls = stubApi({
      'POST /account/password': ({ body }) => {
        const code = (body as { code?: string }).code;
        if (!code) return { status: 400, body: { code: 'code_required', message: CODE_REQUIRED } };
        if (code !== '123456') return { status: 400, body: { code: 'wrong_code', message: WRONG_CODE } };
        return { status: 204 };
      },
    });
    renderWithProviders(<PasswordSection />);
    expect(within(section()).queryByLabelText(CODE_LABEL)).toBeNull();
    const user = await fill({ current: OLD, next: NEW, again: NEW });
    const code = await within(section()).findByLabelText(CODE_LABEL);
    expect(code).toHaveAccessibleDescription(CODE_REQUIRED);
    expect(code).toHaveFocus();
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    await user.keyboard('111111{Enter}');
    await waitFor(() => expect(code).toHaveAccessibleDescription(WRONG_CODE));
    await user.clear(code);
    await user.keyboard('123456{Enter}');
    await findToast('Password changed');
    expect(calls.map((c) => c.body)).toEqual([
      { current_password: OLD, new_password: NEW, confirm_password: NEW },
      { current_password: OLD, new_password: NEW, confirm_password: NEW, code: '111111' },
      { current_password: OLD, new_password: NEW, confirm_password: NEW, code: '123456' },
    ]);
    // Done: the code field goes with the rest.
    expect(within(section()).queryByLabelText(CODE_LABEL)).toBeNull();
  });

  it("too many wrong tries (429) is the usual 'Error' toast with the server's words", async () => {
    const wait = 'Too many attempts. Please try again in 15 minutes.';
    stubApi({
      'POST /account/password': () => ({ status: 429, body: { code: 'too_many_requests', message: wait } }),
    });
    renderWithProviders(<PasswordSection />);
    await fill({ current: OLD, next: NEW, again: NEW });
    await findToast('Error', wait);
    expect(current()).not.toHaveAttribute('aria-invalid');
    expect(submit()).toBeEnabled();
  });

  it('works by keyboard: Tab through the fields to the button, Enter submits', async () => {
    const calls = stubApi({ 'POST /account/password': () => ({ status: 204 }) });
    renderWithProviders(<PasswordSection />);
    const user = userEvent.setup();
    await user.click(current());
    await user.keyboard(OLD);
    await user.tab();
    expect(fresh()).toHaveFocus();
    await user.keyboard(NEW);
    await user.tab();
    expect(confirm()).toHaveFocus();
    await user.keyboard(NEW);
    await user.tab();
    expect(submit()).toHaveFocus();
    await user.keyboard('{Enter}');
    await findToast('Password changed');
    expect(calls).toHaveLength(1);
  });
});
