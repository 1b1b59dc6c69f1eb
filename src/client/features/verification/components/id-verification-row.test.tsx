import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  formatRetryAt,
  ID_CHECK_ERRORS,
  ID_CONSENT,
  ID_CONSENT_REQUIRED,
  ID_PHOTO_FIELDS,
  ID_PHOTO_MESSAGES,
  ID_SENT_TOAST,
  ID_WAITING,
  type IdCheckState,
} from '@shared/verification';
import { findToast } from '@/test/find-toast';
import { renderWithProviders, stubApi } from '@/test/render';
import { SEND_ID_BUTTON, VERIFY_ID_BUTTON } from './id-check-dialog';
import { ID_NOT_CHECKED, IdVerificationRow } from './id-verification-row';

afterEach(() => vi.unstubAllGlobals());

const NONE: IdCheckState = {
  checked: false,
  status: 'none',
  submitted_at: null,
  decided_at: null,
  reason: null,
  next_attempt_at: null,
  attempts_left: 3,
};
const PENDING: IdCheckState = {
  ...NONE,
  status: 'pending',
  submitted_at: '2026-11-29T10:00:00.000Z',
  attempts_left: 2,
};

function renderRow(state: () => IdCheckState, routes: Parameters<typeof stubApi>[0] = {}) {
  const calls = stubApi({ 'GET /account/id-check': () => ({ body: state() }), ...routes });
  const user = userEvent.setup();
  renderWithProviders(
    <ul>
      <IdVerificationRow />
    </ul>,
  );
  return { calls, user };
}

const file = (name: string, type: string, size = 2000) => new File([new Uint8Array(size)], name, { type });

describe("Settings > Verification: the 'ID' row", () => {
  it('says what holds: checked, waiting, not approved with the day to try again, or nothing yet', async () => {
    const states: [IdCheckState, string, boolean][] = [
      [{ ...NONE, checked: true, status: 'approved' }, 'ID checked', false],
      [PENDING, ID_WAITING, false],
      [
        {
          ...NONE,
          status: 'rejected',
          reason: 'Photo unreadable',
          next_attempt_at: '2026-11-30T10:00:00.000Z',
          attempts_left: 2,
        },
        `Not approved: Photo unreadable. You can try again on ${formatRetryAt('2026-11-30T10:00:00.000Z')}.`,
        false,
      ],
      [
        { ...NONE, status: 'rejected', reason: 'Document expired', attempts_left: 2 },
        'Not approved: Document expired.',
        true,
      ],
      [NONE, ID_NOT_CHECKED, true],
    ];
    for (const [state, text, button] of states) {
      const { unmount } = renderWithRow(state);
      expect(await screen.findByText(text)).toBeVisible();
      expect(screen.getByRole('heading', { name: 'ID' })).toBeVisible();
      if (button) expect(screen.getByRole('button', { name: VERIFY_ID_BUTTON })).toBeVisible();
      else expect(screen.queryByRole('button', { name: VERIFY_ID_BUTTON })).not.toBeInTheDocument();
      unmount();
      vi.unstubAllGlobals();
    }
  });

  it('checks the form as the server does, with its words, and focuses the first wrong field', async () => {
    const { calls, user } = renderRow(() => NONE);
    await user.click(await screen.findByRole('button', { name: VERIFY_ID_BUTTON }));
    const dialog = await screen.findByRole('dialog', { name: VERIFY_ID_BUTTON });
    expect(within(dialog).getByText(ID_CONSENT)).toBeVisible();
    await user.click(within(dialog).getByRole('button', { name: SEND_ID_BUTTON }));
    const front = within(dialog).getByLabelText(ID_PHOTO_FIELDS.front);
    expect(front).toHaveFocus();
    expect(front).toHaveAccessibleDescription(ID_PHOTO_MESSAGES.missing('front'));
    expect(within(dialog).getByLabelText(ID_PHOTO_FIELDS.selfie)).toHaveAccessibleDescription(
      ID_PHOTO_MESSAGES.missing('selfie'),
    );
    expect(within(dialog).getByText(ID_CONSENT_REQUIRED)).toHaveAttribute('role', 'alert');

    // A GIF and a photo over 10 MB: refused here, before anything is sent.
    const upload = userEvent.setup({ applyAccept: false });
    await upload.upload(front, file('id.gif', 'image/gif'));
    expect(front).toHaveAccessibleDescription(ID_PHOTO_MESSAGES.type('front'));
    await upload.upload(front, file('id.jpg', 'image/jpeg', 10 * 1024 * 1024 + 1));
    expect(front).toHaveAccessibleDescription(ID_PHOTO_MESSAGES.size('front'));
    expect(front).toHaveAttribute('accept', 'image/jpeg,image/png,image/webp');
    // No `capture`: a phone then offers its camera and its gallery (an ID photographed earlier), not the camera only.
    expect(front).not.toHaveAttribute('capture');
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('sends both photos with the consent, then shows the check waiting', async () => {
    let state = NONE;
    const { calls, user } = renderRow(() => state, {
      'POST /account/id-check': () => {
        state = PENDING;
        return { body: PENDING };
      },
    });
    await user.click(await screen.findByRole('button', { name: VERIFY_ID_BUTTON }));
    const dialog = await screen.findByRole('dialog', { name: VERIFY_ID_BUTTON });
    const front = file('id.jpg', 'image/jpeg');
    const selfie = file('me.png', 'image/png');
    await user.upload(within(dialog).getByLabelText(ID_PHOTO_FIELDS.front), front);
    await user.upload(within(dialog).getByLabelText(ID_PHOTO_FIELDS.selfie), selfie);
    await user.click(within(dialog).getByRole('checkbox', { name: ID_CONSENT }));
    await user.click(within(dialog).getByRole('button', { name: SEND_ID_BUTTON }));
    await findToast(ID_SENT_TOAST);
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.path).toBe('/account/id-check');
    expect(post.form?.get('consent')).toBe('true');
    expect(post.form?.get('front')).toBe(front);
    expect(post.form?.get('selfie')).toBe(selfie);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText(ID_WAITING)).toBeVisible();
    expect(screen.queryByRole('button', { name: VERIFY_ID_BUTTON })).not.toBeInTheDocument();
  });

  it('a refusal keeps the dialog open and says why (another check already waiting)', async () => {
    const { user } = renderRow(() => NONE, {
      'POST /account/id-check': () => ({
        status: 409,
        body: { code: 'id_check_state', message: ID_CHECK_ERRORS.pending },
      }),
    });
    await user.click(await screen.findByRole('button', { name: VERIFY_ID_BUTTON }));
    const dialog = await screen.findByRole('dialog', { name: VERIFY_ID_BUTTON });
    await user.upload(within(dialog).getByLabelText(ID_PHOTO_FIELDS.front), file('id.jpg', 'image/jpeg'));
    await user.upload(within(dialog).getByLabelText(ID_PHOTO_FIELDS.selfie), file('me.webp', 'image/webp'));
    await user.click(within(dialog).getByRole('checkbox', { name: ID_CONSENT }));
    await user.click(within(dialog).getByRole('button', { name: SEND_ID_BUTTON }));
    await findToast('Error', ID_CHECK_ERRORS.pending);
    expect(screen.getByRole('dialog', { name: VERIFY_ID_BUTTON })).toBeVisible();
  });
});

function renderWithRow(state: IdCheckState) {
  stubApi({ 'GET /account/id-check': () => ({ body: state }) });
  return renderWithProviders(
    <ul>
      <IdVerificationRow />
    </ul>,
  );
}
