import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SIGN_OUT_OTHERS_LABEL, type AccountSession } from '@shared/account';
import { formatInstant } from '@/lib/format';
import { uuid } from '@/test/factories';
import { renderWithProviders, stubApi } from '@/test/render';
import { findToast } from '@/test/find-toast';
import { SessionsSection } from './sessions-section';

afterEach(() => vi.unstubAllGlobals());

function makeSession(over: Partial<AccountSession> = {}): AccountSession {
  return {
    id: uuid(),
    browser: 'Chrome on Windows',
    signed_in_at: '2026-05-01T09:00:00.000Z',
    last_active_at: '2026-05-03T12:00:00.000Z',
    current: false,
    ...over,
  };
}

const HERE = makeSession({ browser: 'Firefox on Linux', current: true, last_active_at: '2026-05-04T08:00:00.000Z' });
const PHONE = makeSession({ browser: 'Safari on iPhone', last_active_at: '2026-05-03T18:30:00.000Z' });
const OFFICE = makeSession({ browser: 'Chrome on Windows' });

const section = () => screen.getByRole('region', { name: 'Sessions' });
const rows = () => within(within(section()).getByRole('list', { name: 'Signed-in browsers' })).getAllByRole('listitem');
const signOutOthers = () => within(section()).getByRole('button', { name: SIGN_OUT_OTHERS_LABEL });

/** A server keeping the list of sessions, answering the three calls of the section. */
function server(initial: AccountSession[]) {
  let sessions = initial;
  const calls = stubApi({
    'GET /account/sessions': () => ({ body: { items: sessions } }),
    'POST /account/sessions/sign-out-others': () => {
      const count = sessions.filter((s) => !s.current).length;
      sessions = sessions.filter((s) => s.current);
      return { body: { count } };
    },
    ...Object.fromEntries(
      initial.map((s) => [
        `DELETE /account/sessions/${s.id}`,
        () => {
          sessions = sessions.filter((x) => x.id !== s.id);
          return { status: 204 };
        },
      ]),
    ),
  });
  return calls;
}

describe('SessionsSection', () => {
  it("lists each signed-in browser with its times, 'This device' on mine and 'Sign out' on the others", async () => {
    server([HERE, PHONE, OFFICE]);
    renderWithProviders(<SessionsSection />);
    expect(await within(section()).findByText('Firefox on Linux')).toBeVisible();
    expect(rows().map((r) => r.textContent)).toEqual([
      `Firefox on LinuxThis deviceLast active ${formatInstant(HERE.last_active_at)}Signed in ${formatInstant(HERE.signed_in_at)}`,
      `Safari on iPhoneLast active ${formatInstant(PHONE.last_active_at)}Signed in ${formatInstant(PHONE.signed_in_at)}Sign out`,
      `Chrome on WindowsLast active ${formatInstant(OFFICE.last_active_at)}Signed in ${formatInstant(OFFICE.signed_in_at)}Sign out`,
    ]);
    expect(within(rows()[0]!).queryByRole('button')).not.toBeInTheDocument();
    expect(within(rows()[1]!).getByRole('button', { name: 'Sign out Safari on iPhone' })).toHaveTextContent('Sign out');
    expect(signOutOthers()).toBeEnabled();
  });

  it("'Sign out' on one browser signs out just that one, toasts 'Signed out', reloads and keeps focus in the section", async () => {
    const calls = server([HERE, PHONE, OFFICE]);
    const user = userEvent.setup();
    renderWithProviders(<SessionsSection />);
    await user.click(await within(section()).findByRole('button', { name: 'Sign out Safari on iPhone' }));
    await findToast('Signed out');
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(within(section()).queryByText('Safari on iPhone')).not.toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([`/account/sessions/${PHONE.id}`]);
    await waitFor(() => expect(within(section()).getByRole('heading', { name: 'Sessions' })).toHaveFocus());
  });

  it('a browser already signed out (404) says so and the list is reloaded', async () => {
    let sessions = [HERE, PHONE];
    stubApi({
      'GET /account/sessions': () => ({ body: { items: sessions } }),
      [`DELETE /account/sessions/${PHONE.id}`]: () => {
        sessions = [HERE];
        return { status: 404, body: { code: 'not_found', message: 'Session not found.' } };
      },
    });
    const user = userEvent.setup();
    renderWithProviders(<SessionsSection />);
    await user.click(await within(section()).findByRole('button', { name: 'Sign out Safari on iPhone' }));
    await findToast('Error', 'Session not found.');
    await waitFor(() => expect(rows()).toHaveLength(1));
  });

  it(`'${SIGN_OUT_OTHERS_LABEL}' asks first; Cancel sends nothing, confirming signs the others out by keyboard`, async () => {
    const calls = server([HERE, PHONE, OFFICE]);
    const user = userEvent.setup();
    renderWithProviders(<SessionsSection />);
    await within(section()).findByText('Safari on iPhone');
    await user.click(signOutOthers());
    let dialog = screen.getByRole('alertdialog', { name: `${SIGN_OUT_OTHERS_LABEL}?` });
    expect(dialog).toHaveTextContent('The 2 other browsers signed in to your account will be signed out.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
    await waitFor(() => expect(signOutOthers()).toHaveFocus());

    await user.keyboard('{Enter}');
    dialog = screen.getByRole('alertdialog', { name: `${SIGN_OUT_OTHERS_LABEL}?` });
    // The safe choice has focus first; Tab reaches the action.
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus());
    await user.tab();
    expect(within(dialog).getByRole('button', { name: 'Sign out' })).toHaveFocus();
    await user.keyboard('{Enter}');
    await findToast('Signed out of 2 other sessions');
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual(['/account/sessions/sign-out-others']);
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(within(section()).getByText('You are not signed in anywhere else.')).toBeVisible();
    expect(signOutOthers()).toBeDisabled();
    await waitFor(() => expect(within(section()).getByRole('heading', { name: 'Sessions' })).toHaveFocus());
  });

  it(`'${SIGN_OUT_OTHERS_LABEL}' is disabled when this is the only browser`, async () => {
    server([HERE]);
    renderWithProviders(<SessionsSection />);
    await within(section()).findByText('This device');
    expect(signOutOthers()).toBeDisabled();
    expect(within(section()).getByText('You are not signed in anywhere else.')).toBeVisible();
  });

  it("one other browser: 'Signed out of 1 other session'", async () => {
    server([HERE, PHONE]);
    const user = userEvent.setup();
    renderWithProviders(<SessionsSection />);
    await within(section()).findByText('Safari on iPhone');
    await user.click(signOutOthers());
    const dialog = screen.getByRole('alertdialog', { name: `${SIGN_OUT_OTHERS_LABEL}?` });
    expect(dialog).toHaveTextContent('The other browser signed in to your account will be signed out.');
    await user.click(within(dialog).getByRole('button', { name: 'Sign out' }));
    await findToast('Signed out of 1 other session');
  });

  it('a failed load says so and offers to try again', async () => {
    stubApi({
      'GET /account/sessions': () => ({ status: 500, body: { code: 'internal_error', message: 'Something broke.' } }),
    });
    renderWithProviders(<SessionsSection />);
    expect(await within(section()).findByRole('alert')).toHaveTextContent("We couldn't load your sessions.");
    expect(within(section()).getByRole('button', { name: 'Try again' })).toBeVisible();
  });
});
