import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from '@/test/routes';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ACCOUNT_DELETED_TOAST,
  DELETE_CONFIRM_MESSAGE,
  DELETED_USER_NAME,
  WRONG_CURRENT_PASSWORD,
} from '@shared/account';
import { CODE_LABEL, CODE_REQUIRED, WRONG_CODE } from '@shared/two-factor';
import { queryKeys } from '@/lib/query-keys';
import { renderWithProviders, stubApi } from '@/test/render';
import { DeleteAccountSection } from './delete-account-section';
import { findToast } from '@/test/find-toast';

afterEach(() => vi.unstubAllGlobals());

const PASSWORD = 'Correct-Horse-9';
const status = (enabled: boolean) => () => ({
  body: { enabled, recovery_codes_left: enabled ? 10 : 0, recently_checked: true },
});

function renderCard() {
  const rendered = renderWithProviders(
    <Routes>
      <Route path="/" element={<p>Home page</p>} />
      <Route path="/dashboard/settings" element={<DeleteAccountSection />} />
    </Routes>,
    { route: '/dashboard/settings' },
  );
  return { ...rendered, user: userEvent.setup() };
}

const card = () => screen.getByRole('region', { name: 'Delete account' });
const dialog = () => screen.getByRole('alertdialog', { name: 'Delete your account?' });
const deleteButton = () => within(dialog()).getByRole('button', { name: 'Delete account' });

async function open(user: ReturnType<typeof userEvent.setup>) {
  await user.click(within(card()).getByRole('button', { name: 'Delete account' }));
  return screen.findByRole('alertdialog', { name: 'Delete your account?' });
}

describe('DeleteAccountSection', () => {
  it('explains what happens in plain words, and that it cannot be undone', () => {
    stubApi({ 'GET /account/two-factor': status(false) });
    renderCard();
    for (const text of [
      /open offers are withdrawn/,
      /bookings are cancelled, and the other people are told/,
      /rides and requests are removed/,
      new RegExp(`shown as from ‘${DELETED_USER_NAME}’`),
      /cannot be undone/,
    ]) {
      expect(within(card()).getAllByText(text)[0]).toBeVisible();
    }
  });

  it("deletes: DELETE and the password, then home, the toast, and nothing of the account's left in the cache", async () => {
    const calls = stubApi({
      'GET /account/two-factor': status(false),
      'POST /account/delete': () => ({ status: 204 }),
    });
    const { user, client } = renderCard();
    client.setQueryData(queryKeys.accountProfile, { full_name: 'Ada Field', about: null, email: 'ada@example.com' });
    await open(user);
    const confirm = within(dialog()).getByLabelText(DELETE_CONFIRM_MESSAGE);
    expect(confirm).toHaveFocus();
    expect(within(dialog()).queryByLabelText(CODE_LABEL)).toBeNull();
    expect(deleteButton()).toBeDisabled();
    await user.type(confirm, 'delete');
    expect(deleteButton()).toBeDisabled();
    await user.clear(confirm);
    await user.type(confirm, 'DELETE');
    expect(deleteButton()).toBeEnabled();
    await user.type(within(dialog()).getByLabelText('Password'), PASSWORD);
    await user.click(deleteButton());
    expect(await screen.findByText('Home page')).toBeVisible();
    await findToast(ACCOUNT_DELETED_TOAST);
    expect(client.getQueryData(queryKeys.accountProfile)).toBeUndefined();
    expect(client.getQueryData(queryKeys.session)).toEqual({ user: null, session: null });
    expect(calls.find((c) => c.path === '/account/delete')?.body).toEqual({ confirm: 'DELETE', password: PASSWORD });
  });

  it("with two-factor on it asks for the 'Authentication code' too and sends it", async () => {
    const calls = stubApi({
      'GET /account/two-factor': status(true),
      'POST /account/delete': () => ({ status: 204 }),
    });
    const { user } = renderCard();
    await open(user);
    await user.type(within(dialog()).getByLabelText(DELETE_CONFIRM_MESSAGE), 'DELETE');
    await user.type(within(dialog()).getByLabelText('Password'), PASSWORD);
    await user.type(await within(dialog()).findByLabelText(CODE_LABEL), ' 123456 ');
    await user.click(deleteButton());
    expect(await screen.findByText('Home page')).toBeVisible();
    expect(calls.find((c) => c.path === '/account/delete')?.body).toEqual({
      confirm: 'DELETE',
      password: PASSWORD,
      code: '123456',
    });
  });

  it.each([
    ['wrong_password', WRONG_CURRENT_PASSWORD, 'Password', true],
    ['wrong_code', WRONG_CODE, CODE_LABEL, true],
    ['code_required', CODE_REQUIRED, CODE_LABEL, false],
  ])('%s shows under its field; the dialog stays open', async (code, message, label, twoFactorOn) => {
    stubApi({
      'GET /account/two-factor': status(twoFactorOn),
      'POST /account/delete': () => ({ status: 400, body: { code, message } }),
    });
    const { user } = renderCard();
    await open(user);
    await user.type(within(dialog()).getByLabelText(DELETE_CONFIRM_MESSAGE), 'DELETE');
    await user.type(within(dialog()).getByLabelText('Password'), PASSWORD);
    if (twoFactorOn) await user.type(await within(dialog()).findByLabelText(CODE_LABEL), '123456');
    await user.click(deleteButton());
    const field = await within(dialog()).findByLabelText(label);
    await waitFor(() => expect(field).toHaveAccessibleDescription(message));
    expect(field).toHaveAttribute('aria-invalid', 'true');
    await waitFor(() => expect(field).toHaveFocus());
    expect(screen.queryByText('Home page')).toBeNull();
  });

  it('a refusal without a field (too many tries) is an Error toast', async () => {
    const wait = 'Too many attempts. Please try again in 15 minutes.';
    stubApi({
      'GET /account/two-factor': status(false),
      'POST /account/delete': () => ({ status: 429, body: { code: 'too_many_requests', message: wait } }),
    });
    const { user } = renderCard();
    await open(user);
    await user.type(within(dialog()).getByLabelText(DELETE_CONFIRM_MESSAGE), 'DELETE');
    await user.type(within(dialog()).getByLabelText('Password'), PASSWORD);
    await user.click(deleteButton());
    await findToast('Error', wait);
    expect(dialog()).toBeVisible();
  });

  it('an empty password is refused in the dialog, nothing sent', async () => {
    const calls = stubApi({ 'GET /account/two-factor': status(false) });
    const { user } = renderCard();
    await open(user);
    await user.type(within(dialog()).getByLabelText(DELETE_CONFIRM_MESSAGE), 'DELETE{Enter}');
    expect(await within(dialog()).findByLabelText('Password')).toHaveAccessibleDescription('Password is required');
    expect(calls.some((c) => c.path === '/account/delete')).toBe(false);
  });

  it("'Cancel' (or Escape) closes it with nothing sent, the fields emptied, focus back on the button", async () => {
    const calls = stubApi({ 'GET /account/two-factor': status(false) });
    const { user } = renderCard();
    await open(user);
    await user.type(within(dialog()).getByLabelText(DELETE_CONFIRM_MESSAGE), 'DELETE');
    await user.click(within(dialog()).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(within(card()).getByRole('button', { name: 'Delete account' })).toHaveFocus();
    await open(user);
    expect(within(dialog()).getByLabelText(DELETE_CONFIRM_MESSAGE)).toHaveValue('');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(calls.some((c) => c.path === '/account/delete')).toBe(false);
  });
});
