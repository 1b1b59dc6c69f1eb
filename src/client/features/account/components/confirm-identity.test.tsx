import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  CODE_LABEL,
  CODE_REQUIRED,
  CONFIRM_IDENTITY_TITLE,
  REAUTH_REQUIRED,
  WRONG_CODE,
  WRONG_PASSWORD,
} from '@shared/two-factor';
import { Button } from '@/components/ui/button';
import { api } from '@/lib/api-client';
import { renderWithProviders, stubApi } from '@/test/render';
import { RecheckCancelled, useRecentCheck } from '../api/security';
import { ConfirmIdentityProvider } from './confirm-identity';

afterEach(() => vi.unstubAllGlobals());

const PASSWORD = 'Correct-Horse-9';
const REAUTH = { status: 403, body: { code: 'reauth_required', message: REAUTH_REQUIRED } };
const status = (enabled: boolean) => () => ({
  body: { enabled, recovery_codes_left: enabled ? 10 : 0, recently_checked: false },
});

/** A card's sensitive action: POST /probe behind the re-check; shows how it ended. */
function Probe() {
  const { withRecentCheck } = useRecentCheck();
  const [outcome, setOutcome] = useState('');
  return (
    <>
      <Button
        onClick={() =>
          withRecentCheck(() => api<{ ok: boolean }>('/probe', { method: 'POST' })).then(
            (r) => setOutcome(`done ${String(r.ok)}`),
            (err: unknown) => setOutcome(err instanceof RecheckCancelled ? 'cancelled' : 'failed'),
          )
        }
      >
        Do it
      </Button>
      <p>{outcome}</p>
    </>
  );
}

function renderProbe() {
  renderWithProviders(
    <ConfirmIdentityProvider>
      <Probe />
    </ConfirmIdentityProvider>,
  );
  return userEvent.setup();
}

/** POST /probe refuses once with reauth_required, then succeeds. */
function probeNeedingCheck() {
  let checked = false;
  return {
    'POST /probe': () => (checked ? { body: { ok: true } } : REAUTH),
    'POST /account/confirm-identity': () => {
      checked = true;
      return { status: 204 };
    },
  };
}

const dialog = () => screen.getByRole('dialog', { name: CONFIRM_IDENTITY_TITLE });

describe('ConfirmIdentityProvider (withRecentCheck)', () => {
  it('runs the action without asking when the check is recent', async () => {
    const calls = stubApi({ 'POST /probe': () => ({ body: { ok: true } }) });
    const user = renderProbe();
    await user.click(screen.getByRole('button', { name: 'Do it' }));
    expect(await screen.findByText('done true')).toBeVisible();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(calls.map((c) => c.path)).toEqual(['/probe']);
  });

  it("on 'reauth_required' asks for the password, confirms it, then repeats the action", async () => {
    const calls = stubApi({ ...probeNeedingCheck(), 'GET /account/two-factor': status(false) });
    const user = renderProbe();
    await user.click(screen.getByRole('button', { name: 'Do it' }));
    const password = await within(await screen.findByRole('dialog')).findByLabelText('Password');
    expect(dialog()).toHaveAccessibleDescription(expect.stringContaining(REAUTH_REQUIRED));
    expect(password).toHaveFocus();
    expect(password).toHaveAttribute('autocomplete', 'current-password');
    await waitFor(() => expect(calls.some((c) => c.path === '/account/two-factor')).toBe(true));
    expect(within(dialog()).queryByLabelText(CODE_LABEL)).toBeNull();
    // Enter submits.
    await user.keyboard(`${PASSWORD}{Enter}`);
    expect(await screen.findByText('done true')).toBeVisible();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(calls.filter((c) => c.method === 'POST').map((c) => [c.path, c.body])).toEqual([
      ['/probe', undefined],
      ['/account/confirm-identity', { password: PASSWORD }],
      ['/probe', undefined],
    ]);
  });

  it("with two-factor on asks for an 'Authentication code' as well and sends it", async () => {
    const calls = stubApi({ ...probeNeedingCheck(), 'GET /account/two-factor': status(true) });
    const user = renderProbe();
    await user.click(screen.getByRole('button', { name: 'Do it' }));
    const code = await within(await screen.findByRole('dialog')).findByLabelText(CODE_LABEL);
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    await user.type(within(dialog()).getByLabelText('Password'), PASSWORD);
    await user.type(code, '123456');
    await user.click(within(dialog()).getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('done true')).toBeVisible();
    expect(calls.find((c) => c.path === '/account/confirm-identity')?.body).toEqual({
      password: PASSWORD,
      code: '123456',
    });
  });

  it("shows the code field when the server answers 'code_required', with the message, focused there", async () => {
    let answers = 0;
    const calls = stubApi({
      'POST /probe': () => (answers === 2 ? { body: { ok: true } } : REAUTH),
      'POST /account/confirm-identity': () => {
        answers += 1;
        return answers === 1
          ? { status: 400, body: { code: 'code_required', message: CODE_REQUIRED } }
          : { status: 204 };
      },
      'GET /account/two-factor': () => ({ status: 500, body: { code: 'internal_error', message: 'Down' } }),
    });
    const user = renderProbe();
    await user.click(screen.getByRole('button', { name: 'Do it' }));
    await user.type(await within(await screen.findByRole('dialog')).findByLabelText('Password'), PASSWORD);
    await user.click(within(dialog()).getByRole('button', { name: 'Continue' }));
    const code = await within(dialog()).findByLabelText(CODE_LABEL);
    expect(code).toHaveAccessibleDescription(CODE_REQUIRED);
    await waitFor(() => expect(code).toHaveFocus());
    await user.type(code, 'abcde-23456');
    await user.click(within(dialog()).getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('done true')).toBeVisible();
    expect(calls.filter((c) => c.path === '/account/confirm-identity').map((c) => c.body)).toEqual([
      { password: PASSWORD },
      { password: PASSWORD, code: 'abcde-23456' },
    ]);
  });

  it.each([
    ['wrong_password', WRONG_PASSWORD, 'Password'],
    ['wrong_code', WRONG_CODE, CODE_LABEL],
  ])('%s shows under its field and keeps the dialog open', async (code, message, label) => {
    stubApi({
      'POST /probe': () => REAUTH,
      'POST /account/confirm-identity': () => ({ status: 400, body: { code, message } }),
      'GET /account/two-factor': status(true),
    });
    const user = renderProbe();
    await user.click(screen.getByRole('button', { name: 'Do it' }));
    await user.type(await within(await screen.findByRole('dialog')).findByLabelText(CODE_LABEL), '654321');
    await user.type(within(dialog()).getByLabelText('Password'), PASSWORD);
    await user.click(within(dialog()).getByRole('button', { name: 'Continue' }));
    const field = within(dialog()).getByLabelText(label);
    await waitFor(() => expect(field).toHaveAccessibleDescription(message));
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveFocus();
    expect(dialog()).toBeVisible();
    expect(screen.queryByText(/done|cancelled|failed/)).toBeNull();
  });

  it('an empty password is refused in the dialog, nothing sent', async () => {
    const calls = stubApi({ 'POST /probe': () => REAUTH, 'GET /account/two-factor': status(false) });
    const user = renderProbe();
    await user.click(screen.getByRole('button', { name: 'Do it' }));
    await user.click(await within(await screen.findByRole('dialog')).findByRole('button', { name: 'Continue' }));
    expect(await within(dialog()).findByLabelText('Password')).toHaveAccessibleDescription('Password is required');
    expect(calls.some((c) => c.path === '/account/confirm-identity')).toBe(false);
  });

  it.each([
    [
      'Cancel',
      async (user: ReturnType<typeof userEvent.setup>) =>
        user.click(within(dialog()).getByRole('button', { name: 'Cancel' })),
    ],
    ['Escape', async (user: ReturnType<typeof userEvent.setup>) => user.keyboard('{Escape}')],
  ])('%s closes the dialog and the action ends quietly: not repeated, no toast, focus back', async (_, close) => {
    const calls = stubApi({ 'POST /probe': () => REAUTH, 'GET /account/two-factor': status(false) });
    const user = renderProbe();
    await user.click(screen.getByRole('button', { name: 'Do it' }));
    await within(await screen.findByRole('dialog')).findByLabelText('Password');
    await close(user);
    expect(await screen.findByText('cancelled')).toBeVisible();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('button', { name: 'Do it' })).toHaveFocus();
    expect(calls.filter((c) => c.path === '/probe')).toHaveLength(1);
    expect(document.querySelectorAll('[data-sonner-toast]')).toHaveLength(0);
  });

  it('passes any other failure of the action on (the card toasts it)', async () => {
    stubApi({ 'POST /probe': () => ({ status: 500, body: { code: 'internal_error', message: 'Down' } }) });
    const user = renderProbe();
    await user.click(screen.getByRole('button', { name: 'Do it' }));
    expect(await screen.findByText('failed')).toBeVisible();
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
