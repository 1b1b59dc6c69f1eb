import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CODE_LABEL,
  CODE_REQUIRED,
  CONFIRM_IDENTITY_TITLE,
  REAUTH_REQUIRED,
  TWO_FACTOR_TOASTS,
  WRONG_CODE,
} from '@shared/two-factor';
import { renderWithProviders, stubApi } from '@/test/render';
import { ConfirmIdentityProvider } from './confirm-identity';
import { findToast } from '@/test/find-toast';
import { TWO_FACTOR_TITLE, TwoFactorSection } from './two-factor-section';

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const SETUP = {
  secret: SECRET,
  otpauth_url: `otpauth://totp/RuralRoute:ada%40example.com?secret=${SECRET}&issuer=RuralRoute`,
  qr_code: 'data:image/svg+xml;base64,PHN2Zy8+',
};
const CODES = Array.from({ length: 10 }, (_, i) => `abcd${i}-efgh${i}`.replace(/[01]/g, '2'));
const OFF = { enabled: false, recovery_codes_left: 0, recently_checked: true };
const ON = { enabled: true, recovery_codes_left: 7, recently_checked: true };

let clicked: HTMLAnchorElement[] = [];
beforeEach(() => {
  clicked = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    clicked.push(this);
  });
  URL.createObjectURL = vi.fn(() => 'blob:codes');
  URL.revokeObjectURL = vi.fn();
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const card = () => screen.getByRole('region', { name: TWO_FACTOR_TITLE });

function renderCard() {
  renderWithProviders(
    <ConfirmIdentityProvider>
      <TwoFactorSection />
    </ConfirmIdentityProvider>,
  );
  return userEvent.setup();
}

/** The server's status, changed by the stubbed actions as the real one would be. */
function twoFactorServer(initial: typeof OFF) {
  let state = { ...initial };
  return {
    'GET /account/two-factor': () => ({ body: state }),
    'POST /account/two-factor/setup': () => ({ body: SETUP }),
    'POST /account/two-factor/enable': ({ body }: { body: unknown }) => {
      if ((body as { code: string }).code !== '123456') {
        return { status: 400, body: { code: 'wrong_code', message: WRONG_CODE } };
      }
      state = { enabled: true, recovery_codes_left: 10, recently_checked: true };
      return { body: { recovery_codes: CODES } };
    },
    'POST /account/two-factor/disable': ({ body }: { body: unknown }) => {
      if ((body as { code: string }).code !== '654321') {
        return { status: 400, body: { code: 'wrong_code', message: WRONG_CODE } };
      }
      state = { ...OFF };
      return { status: 204 };
    },
    'POST /account/two-factor/recovery-codes': () => {
      state = { ...state, recovery_codes_left: 10 };
      return { body: { recovery_codes: CODES } };
    },
  };
}

describe('TwoFactorSection', () => {
  it("off: says so in plain words, 'Set up' shows the QR code, the key in groups and the steps", async () => {
    stubApi(twoFactorServer(OFF));
    const user = renderCard();
    expect(await within(card()).findByText(/Two-factor authentication is off/)).toBeVisible();
    await user.click(within(card()).getByRole('button', { name: 'Set up' }));
    expect(await within(card()).findByRole('heading', { name: 'Set up two-factor authentication' })).toHaveFocus();
    const qr = within(card()).getByRole('img', { name: /QR code/ });
    expect(qr).toHaveAttribute('src', SETUP.qr_code);
    expect(qr).toHaveAccessibleName('QR code for adding RuralRoute to your authenticator app');
    expect(within(card()).getByText('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP')).toBeVisible();
    expect(within(card()).getByText(/authenticator app on your phone/)).toBeVisible();
    const code = within(card()).getByLabelText(CODE_LABEL);
    expect(code).toHaveAttribute('inputmode', 'numeric');
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
  });

  it("'Copy key' puts the key on the clipboard", async () => {
    const writeText = vi.fn(async () => undefined);
    stubApi(twoFactorServer(OFF));
    const user = renderCard();
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await user.click(await within(card()).findByRole('button', { name: 'Set up' }));
    await user.click(await within(card()).findByRole('button', { name: 'Copy key' }));
    await findToast('Key copied');
    expect(writeText).toHaveBeenCalledWith(SECRET);
  });

  it("'Turn on' with the right code shows the 10 recovery codes once, with Download, Copy and Done", async () => {
    const calls = stubApi(twoFactorServer(OFF));
    const user = renderCard();
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await user.click(await within(card()).findByRole('button', { name: 'Set up' }));
    await user.type(await within(card()).findByLabelText(CODE_LABEL), '123 456');
    await user.click(within(card()).getByRole('button', { name: 'Turn on' }));
    await findToast(TWO_FACTOR_TOASTS.enabled);
    expect(await within(card()).findByRole('heading', { name: 'Save your recovery codes' })).toHaveFocus();
    const list = within(card()).getByRole('list', { name: 'Recovery codes' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(CODES);
    expect(calls.find((c) => c.path === '/account/two-factor/enable')?.body).toEqual({ code: '123456' });

    await user.click(within(card()).getByRole('button', { name: 'Download' }));
    expect(clicked.map((a) => [a.download, a.href])).toEqual([['ruralroute-recovery-codes.txt', 'blob:codes']]);
    const blob = vi.mocked(URL.createObjectURL).mock.calls[0]![0] as Blob;
    const text = await blob.text();
    for (const code of CODES) expect(text).toContain(code);

    await user.click(within(card()).getByRole('button', { name: 'Copy' }));
    await findToast(TWO_FACTOR_TOASTS.copied);
    expect(writeText).toHaveBeenCalledWith(CODES.join('\n'));

    await user.click(within(card()).getByRole('button', { name: 'Done' }));
    expect(await within(card()).findByText(/Two-factor authentication is on/)).toBeVisible();
    expect(within(card()).getByText(/You have 10 recovery codes left/)).toBeVisible();
    expect(within(card()).queryByRole('list', { name: 'Recovery codes' })).toBeNull();
    await waitFor(() => expect(screen.getByRole('heading', { name: TWO_FACTOR_TITLE })).toHaveFocus());
  });

  it('a wrong or missing code shows under the field; nothing turns on', async () => {
    const calls = stubApi(twoFactorServer(OFF));
    const user = renderCard();
    await user.click(await within(card()).findByRole('button', { name: 'Set up' }));
    await user.click(await within(card()).findByRole('button', { name: 'Turn on' }));
    const code = within(card()).getByLabelText(CODE_LABEL);
    expect(code).toHaveAccessibleDescription(CODE_REQUIRED);
    expect(calls.some((c) => c.path === '/account/two-factor/enable')).toBe(false);
    await user.type(code, '000000');
    await user.click(within(card()).getByRole('button', { name: 'Turn on' }));
    await waitFor(() => expect(code).toHaveAccessibleDescription(WRONG_CODE));
    expect(code).toHaveFocus();
    expect(within(card()).queryByRole('list', { name: 'Recovery codes' })).toBeNull();
  });

  it("'Cancel' during set-up leaves it off", async () => {
    stubApi(twoFactorServer(OFF));
    const user = renderCard();
    await user.click(await within(card()).findByRole('button', { name: 'Set up' }));
    await user.click(await within(card()).findByRole('button', { name: 'Cancel' }));
    expect(await within(card()).findByRole('button', { name: 'Set up' })).toBeVisible();
    expect(within(card()).queryByRole('img')).toBeNull();
  });

  it("'Set up' behind an old check asks 'Confirm it's you' first; cancelling it changes nothing, quietly", async () => {
    const calls = stubApi({
      ...twoFactorServer(OFF),
      'POST /account/two-factor/setup': () => ({
        status: 403,
        body: { code: 'reauth_required', message: REAUTH_REQUIRED },
      }),
    });
    const user = renderCard();
    await user.click(await within(card()).findByRole('button', { name: 'Set up' }));
    const dialog = await screen.findByRole('dialog', { name: CONFIRM_IDENTITY_TITLE });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(within(card()).getByRole('button', { name: 'Set up' })).toBeEnabled();
    expect(document.querySelectorAll('[data-sonner-toast]')).toHaveLength(0);
    expect(calls.filter((c) => c.path === '/account/two-factor/setup')).toHaveLength(1);
  });

  it("on: the codes left, 'New recovery codes' shows new ones the same way", async () => {
    stubApi(twoFactorServer(ON));
    const user = renderCard();
    expect(await within(card()).findByText(/You have 7 recovery codes left/)).toBeVisible();
    await user.click(within(card()).getByRole('button', { name: 'New recovery codes' }));
    await findToast(TWO_FACTOR_TOASTS.newCodes);
    const list = await within(card()).findByRole('list', { name: 'Recovery codes' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(10);
    await user.click(within(card()).getByRole('button', { name: 'Done' }));
    expect(await within(card()).findByText(/You have 10 recovery codes left/)).toBeVisible();
  });

  it("'Turn off' asks for a code in a dialog: a wrong one shows there, the right one turns it off", async () => {
    const calls = stubApi(twoFactorServer(ON));
    const user = renderCard();
    await user.click(await within(card()).findByRole('button', { name: 'Turn off' }));
    const dialog = await screen.findByRole('dialog', { name: 'Turn off two-factor authentication?' });
    const code = within(dialog).getByLabelText(CODE_LABEL);
    expect(code).toHaveFocus();
    // Keyboard: type and Enter.
    await user.keyboard('111111{Enter}');
    await waitFor(() => expect(code).toHaveAccessibleDescription(WRONG_CODE));
    await user.clear(code);
    await user.keyboard('654321{Enter}');
    await findToast(TWO_FACTOR_TOASTS.disabled);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await within(card()).findByRole('button', { name: 'Set up' })).toBeVisible();
    expect(calls.filter((c) => c.path === '/account/two-factor/disable').map((c) => c.body)).toEqual([
      { code: '111111' },
      { code: '654321' },
    ]);
  });

  it("'Turn off' can be cancelled with Escape: still on, focus back on the button", async () => {
    const calls = stubApi(twoFactorServer(ON));
    const user = renderCard();
    await user.click(await within(card()).findByRole('button', { name: 'Turn off' }));
    await screen.findByRole('dialog');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(within(card()).getByRole('button', { name: 'Turn off' })).toHaveFocus();
    expect(calls.some((c) => c.path === '/account/two-factor/disable')).toBe(false);
  });
});
