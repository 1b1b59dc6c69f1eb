import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from '@/test/routes';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CODE_LABEL, RECOVERY_CODE_LABEL, USE_RECOVERY_CODE_LABEL, WRONG_CODE } from '@shared/two-factor';
import { queryClient } from '@/app/providers';
import { SESSION_CHANNEL } from '@/lib/session-channel';
import { renderWithProviders, stubApi } from '@/test/render';
import { AuthCard } from './auth-card';

// /auth works in the app's own query cache (its forms and the code step bring it when needed), not the test's.
afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

const USER = {
  id: '3f1c1e53-8f4b-4c1e-9a57-5d3ab2c8d001',
  email: 'ada@example.com',
  full_name: 'Ada',
  is_admin: false,
  email_verified: true,
};
const AAL2 = {
  user: USER,
  session: { aal: 'aal2', idle_expires_at: '2026-05-01T12:00:00.000Z', expires_at: '2026-05-30T12:00:00.000Z' },
};
const PENDING = { user: null, session: null, two_factor_pending: true };
const SIGNED_OUT = { user: null, session: null };

function renderAuth() {
  const rendered = renderWithProviders(
    <Routes>
      <Route path="/auth" element={<AuthCard />} />
      <Route path="/dashboard" element={<p>Dashboard</p>} />
    </Routes>,
    { route: '/auth' },
  );
  return { ...rendered, user: userEvent.setup() };
}

/** The code step's answers: '123456' and 'abcde-fghij' are right. */
const codeRoute = () => ({
  'POST /auth/two-factor': ({ body }: { body: unknown }) => {
    const { code, recovery_code } = body as { code?: string; recovery_code?: string };
    return code === '123456' || recovery_code === 'abcde-fghij'
      ? { body: AAL2 }
      : { status: 400, body: { code: 'wrong_code', message: WRONG_CODE } };
  },
});

describe("Sign-in's 'Authentication code' step", () => {
  it('appears after a correct password when two-factor is on; the right code opens the dashboard', async () => {
    const calls = stubApi({
      'GET /auth/session': () => ({ body: SIGNED_OUT }),
      'POST /auth/sign-in': () => ({ body: PENDING }),
      ...codeRoute(),
    });
    const { user } = renderAuth();
    await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'Correct-Horse-9');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    const code = await screen.findByLabelText(CODE_LABEL);
    expect(code).toHaveFocus();
    expect(code).toHaveAttribute('inputmode', 'numeric');
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(screen.getByRole('heading', { name: CODE_LABEL })).toBeVisible();
    // Still signed out meanwhile: every guard sees no user.
    expect(queryClient.getQueryData(['auth', 'session'])).toEqual(PENDING);
    await user.keyboard('123 456{Enter}');
    expect(await screen.findByText('Dashboard')).toBeVisible();
    expect(queryClient.getQueryData(['auth', 'session'])).toEqual(AAL2);
    expect(calls.filter((c) => c.method === 'POST').map((c) => [c.path, c.body])).toEqual([
      ['/auth/sign-in', { email: 'ada@example.com', password: 'Correct-Horse-9' }],
      ['/auth/two-factor', { code: '123456' }],
    ]);
  });

  it('shows on opening /auth while the session waits for a code', async () => {
    stubApi({ 'GET /auth/session': () => ({ body: PENDING }) });
    renderAuth();
    expect(await screen.findByLabelText(CODE_LABEL)).toHaveFocus();
    expect(screen.queryByRole('tab', { name: 'Sign In' })).toBeNull();
  });

  it('a wrong code shows under the field, focused; a malformed one is refused before sending', async () => {
    const calls = stubApi({ 'GET /auth/session': () => ({ body: PENDING }), ...codeRoute() });
    const { user } = renderAuth();
    const code = await screen.findByLabelText(CODE_LABEL);
    await user.keyboard('12{Enter}');
    expect(code).toHaveAccessibleDescription('Enter the 6-digit code from your authenticator app');
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    await user.clear(code);
    await user.keyboard('000000{Enter}');
    await waitFor(() => expect(code).toHaveAccessibleDescription(WRONG_CODE));
    expect(code).toHaveAttribute('aria-invalid', 'true');
    expect(code).toHaveFocus();
    expect(screen.queryByText('Dashboard')).toBeNull();
  });

  it("'Use a recovery code' switches to a 'Recovery code' field and sends it as the schema reads it", async () => {
    const calls = stubApi({ 'GET /auth/session': () => ({ body: PENDING }), ...codeRoute() });
    const { user } = renderAuth();
    await screen.findByLabelText(CODE_LABEL);
    await user.click(screen.getByRole('button', { name: USE_RECOVERY_CODE_LABEL }));
    const recovery = await screen.findByLabelText(RECOVERY_CODE_LABEL);
    expect(recovery).toHaveFocus();
    expect(screen.queryByLabelText(CODE_LABEL)).toBeNull();
    await user.keyboard('ABCDE FGHIJ{Enter}');
    expect(await screen.findByText('Dashboard')).toBeVisible();
    expect(calls.find((c) => c.path === '/auth/two-factor')?.body).toEqual({ recovery_code: 'abcde-fghij' });
  });

  it("too many tries (429) is the sign-in form's 'Error' toast with the server's words", async () => {
    const wait = 'Too many attempts. Please try again in 15 minutes.';
    stubApi({
      'GET /auth/session': () => ({ body: PENDING }),
      'POST /auth/two-factor': () => ({ status: 429, body: { code: 'too_many_requests', message: wait } }),
    });
    const { user } = renderAuth();
    await screen.findByLabelText(CODE_LABEL);
    await user.keyboard('123456{Enter}');
    await waitFor(() => {
      const toasts = [...document.querySelectorAll('[data-sonner-toast]')].map((t) => t.textContent ?? '');
      expect(toasts.some((t) => t.includes('Error') && t.includes(wait))).toBe(true);
    });
    expect(screen.getByLabelText(CODE_LABEL)).not.toHaveAttribute('aria-invalid');
  });

  it('a sign-in that expired meanwhile (401) goes back to the sign-in form', async () => {
    stubApi({
      'GET /auth/session': () => ({ body: PENDING }),
      'POST /auth/two-factor': () => ({ status: 401, body: { code: 'unauthenticated', message: 'Sign in first.' } }),
    });
    const { user } = renderAuth();
    await screen.findByLabelText(CODE_LABEL);
    await user.keyboard('123456{Enter}');
    expect(await screen.findByRole('tab', { name: 'Sign In' })).toBeVisible();
  });

  it("'Cancel' signs the half-done session out and shows the sign-in form again", async () => {
    const calls = stubApi({
      'GET /auth/session': () => ({ body: PENDING }),
      'POST /auth/sign-out': () => ({ status: 204 }),
    });
    const { user } = renderAuth();
    await screen.findByLabelText(CODE_LABEL);
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    const form = await screen.findByRole('form', { name: 'Sign in' });
    expect(within(form).getByLabelText('Email')).toBeVisible();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual(['/auth/sign-out']);
    expect(queryClient.getQueryData(['auth', 'session'])).toEqual(SIGNED_OUT);
  });
});

describe('/auth on arrival', () => {
  it('sends a signed-in person on to the dashboard', async () => {
    stubApi({ 'GET /auth/session': () => ({ body: AAL2 }) });
    renderAuth();
    expect(await screen.findByText('Dashboard')).toBeVisible();
  });

  it('goes on to the dashboard when another tab says someone signed in', async () => {
    let session: unknown = SIGNED_OUT;
    const calls = stubApi({ 'GET /auth/session': () => ({ body: session }) });
    renderAuth();
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(screen.getByRole('form', { name: 'Sign in' })).toBeVisible();
    session = AAL2;
    const otherTab = new BroadcastChannel(SESSION_CHANNEL);
    otherTab.postMessage(USER.id);
    otherTab.close();
    expect(await screen.findByText('Dashboard')).toBeVisible();
  });

  it('keeps the forms when the session cannot be asked for (no signal)', async () => {
    const calls = stubApi({ 'GET /auth/session': () => Promise.reject(new TypeError('Failed to fetch')) });
    renderAuth();
    await waitFor(() => expect(calls.map((c) => c.path)).toEqual(['/auth/session']));
    expect(screen.getByRole('form', { name: 'Sign in' })).toBeVisible();
    expect(screen.queryByText('Dashboard')).toBeNull();
  });
});
