import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DOWNLOAD_DATA_LABEL } from '@shared/account';
import { CONFIRM_IDENTITY_TITLE, REAUTH_REQUIRED } from '@shared/two-factor';
import { renderWithProviders, stubApi } from '@/test/render';
import { filenameOf } from '../api/data';
import { ConfirmIdentityProvider } from './confirm-identity';
import { findToast } from '@/test/find-toast';
import { YourDataSection } from './your-data-section';

const NAME = 'ruralroute-data-2026-05-01.json';
const DATA = { account: { full_name: 'Ada Field' }, rides: [] };
const EXPORT = { body: DATA, headers: { 'Content-Disposition': `attachment; filename="${NAME}"` } };

let clicked: HTMLAnchorElement[] = [];
beforeEach(() => {
  clicked = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    clicked.push(this);
  });
  URL.createObjectURL = vi.fn(() => 'blob:data');
  URL.revokeObjectURL = vi.fn();
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const card = () => screen.getByRole('region', { name: 'Your data' });
const button = () => within(card()).getByRole('button', { name: DOWNLOAD_DATA_LABEL });

function renderCard() {
  renderWithProviders(
    <ConfirmIdentityProvider>
      <YourDataSection />
    </ConfirmIdentityProvider>,
  );
  return userEvent.setup();
}

describe('YourDataSection', () => {
  it('says what the file holds in plain words', () => {
    stubApi({});
    renderCard();
    expect(within(card()).getByText(/messages you sent and received/)).toBeVisible();
    expect(within(card()).getByText(/JSON file/)).toBeVisible();
  });

  it("'Download my data' saves the server's JSON under the name it gives, busy meanwhile", async () => {
    let answer!: () => void;
    const calls = stubApi({
      'GET /account/export': () => new Promise((resolve) => (answer = () => resolve(EXPORT))),
    });
    const user = renderCard();
    await user.click(button());
    expect(within(card()).getByRole('button', { name: 'Preparing your data...' })).toBeDisabled();
    answer();
    await waitFor(() =>
      expect(within(card()).getByRole('status')).toHaveTextContent(`Saved ${NAME} to your downloads.`),
    );
    expect(button()).toBeEnabled();
    expect(clicked.map((a) => [a.download, a.href])).toEqual([[NAME, 'blob:data']]);
    const blob = vi.mocked(URL.createObjectURL).mock.calls[0]![0] as Blob;
    expect(blob.type).toBe('application/json');
    expect(JSON.parse(await blob.text())).toEqual(DATA);
    expect(calls.map((c) => [c.method, c.path])).toEqual([['GET', '/account/export']]);
  });

  it("behind an old check it asks 'Confirm it's you', then downloads", async () => {
    let checked = false;
    stubApi({
      'GET /account/export': () =>
        checked ? EXPORT : { status: 403, body: { code: 'reauth_required', message: REAUTH_REQUIRED } },
      'GET /account/two-factor': () => ({ body: { enabled: false, recovery_codes_left: 0, recently_checked: false } }),
      'POST /account/confirm-identity': () => {
        checked = true;
        return { status: 204 };
      },
    });
    const user = renderCard();
    await user.click(button());
    const dialog = await screen.findByRole('dialog', { name: CONFIRM_IDENTITY_TITLE });
    await user.type(within(dialog).getByLabelText('Password'), 'Correct-Horse-9{Enter}');
    await waitFor(() => expect(within(card()).getByRole('status')).toHaveTextContent(NAME));
    expect(clicked).toHaveLength(1);
  });

  it('a failure is an Error toast with the reason; nothing is saved', async () => {
    stubApi({
      'GET /account/export': () => ({ status: 500, body: { code: 'internal_error', message: 'Something broke.' } }),
    });
    const user = renderCard();
    await user.click(button());
    await findToast('Error', 'Something broke.');
    await waitFor(() => expect(button()).toBeEnabled());
    expect(clicked).toHaveLength(0);
  });
});

describe('filenameOf', () => {
  it.each([
    ['attachment; filename="ruralroute-data-2026-05-01.json"', 'ruralroute-data-2026-05-01.json'],
    ['attachment; filename=plain.json', 'plain.json'],
    ["attachment; filename*=UTF-8''my%20data.json", 'my data.json'],
    ['attachment; filename="../../etc/passwd"', 'passwd'],
    [null, 'ruralroute-data.json'],
    ['attachment', 'ruralroute-data.json'],
  ])('%s -> %s', (header, name) => expect(filenameOf(header)).toBe(name));
});
