import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StrictMode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PAGE_PATHS } from '@shared/routes';
import { EMAIL_BANNER_TITLE, EMAIL_VERIFIED_TITLE, EMAIL_VERIFY_EXPIRED } from '@shared/verification';
import { findToast } from '@/test/find-toast';
import { renderWithProviders, stubApi } from '@/test/render';
import { VERIFICATION_SENT_TOAST } from '../api/email';
import { Component as DashboardRoute } from '@/app/routes/dashboard-home';
import { VerificationSection } from './verification-section';
import { VerifyEmailPage } from './verify-email-page';

afterEach(() => vi.unstubAllGlobals());

const EMAIL = 'vera@example.com';
const SESSION = { aal: 'aal1', idle_expires_at: '2099-01-01T00:00:00.000Z', expires_at: '2099-01-01T00:00:00.000Z' };
const signedIn = (verified: boolean) => ({
  body: {
    user: { id: 'u1', email: EMAIL, full_name: 'Vera Field', is_admin: false, email_verified: verified },
    session: SESSION,
  },
});
const SIGNED_OUT = { body: { user: null, session: null } };
const DASHBOARD = {
  body: {
    stats: { active_rides: 0, open_requests: 0, total_bookings: 0, bookings_as_driver: 0, completed: 0 },
    activity: [],
  },
};

// The banner is rendered by the dashboard's route (app/routes/dashboard-home.tsx) while the address is unconfirmed.
describe('the dashboard banner', () => {
  it("shows 'Confirm your email address' with the address while unconfirmed; 'Resend email' mails a new link", async () => {
    const calls = stubApi({
      'GET /auth/session': () => signedIn(false),
      'GET /dashboard': () => DASHBOARD,
      'POST /account/email-verification': () => ({ status: 202, body: { email: EMAIL } }),
    });
    renderWithProviders(<DashboardRoute />);
    const banner = await screen.findByRole('region', { name: EMAIL_BANNER_TITLE });
    expect(banner).toHaveTextContent(EMAIL);
    await userEvent.click(screen.getByRole('button', { name: 'Resend email' }));
    await findToast(VERIFICATION_SENT_TOAST);
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual(['/account/email-verification']);
  });

  it('is absent once the address is confirmed, and signed out', async () => {
    stubApi({ 'GET /auth/session': () => signedIn(true), 'GET /dashboard': () => DASHBOARD });
    const { unmount } = renderWithProviders(<DashboardRoute />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome back!' })).toBeVisible();
    await waitFor(() => expect(screen.getByTestId('stat-activeRides')).toBeVisible());
    expect(screen.queryByRole('region', { name: EMAIL_BANNER_TITLE })).toBeNull();
    unmount();
    stubApi({ 'GET /auth/session': () => SIGNED_OUT, 'GET /dashboard': () => DASHBOARD });
    renderWithProviders(<DashboardRoute />);
    expect(screen.queryByRole('region', { name: EMAIL_BANNER_TITLE })).toBeNull();
  });

  it("shows the server's answer when resending is refused (confirmed meanwhile in another tab)", async () => {
    stubApi({
      'GET /auth/session': () => signedIn(false),
      'GET /dashboard': () => DASHBOARD,
      'POST /account/email-verification': () => ({
        status: 409,
        body: { code: 'email_already_verified', message: 'Your email address is already confirmed.' },
      }),
    });
    renderWithProviders(<DashboardRoute />);
    await userEvent.click(await screen.findByRole('button', { name: 'Resend email' }));
    await findToast('Your email address is already confirmed.');
  });
});

describe("Settings' 'Verification'", () => {
  it("lists 'Email' as 'Email verified' once confirmed, without a resend button", async () => {
    stubApi({ 'GET /auth/session': () => signedIn(true) });
    renderWithProviders(<VerificationSection />);
    expect(await screen.findByText('Email verified')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Resend email' })).toBeNull();
  });

  it("offers 'Resend email' while unconfirmed", async () => {
    stubApi({ 'GET /auth/session': () => signedIn(false) });
    renderWithProviders(<VerificationSection />);
    expect(await screen.findByText(`Not confirmed yet: ${EMAIL}`)).toBeVisible();
    expect(screen.getByRole('button', { name: 'Resend email' })).toBeEnabled();
  });
});

describe('the /verify-email page', () => {
  const renderAt = (route: string) =>
    renderWithProviders(
      <StrictMode>
        <VerifyEmailPage />
      </StrictMode>,
      { route },
    );

  it('posts the token once as it opens, then says the address is confirmed', async () => {
    const calls = stubApi({
      'GET /auth/session': () => SIGNED_OUT,
      'POST /auth/verify-email': () => ({ body: { email: EMAIL } }),
    });
    renderAt('/verify-email?token=tok_1');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(EMAIL_BANNER_TITLE);
    expect(await screen.findByRole('heading', { level: 1, name: EMAIL_VERIFIED_TITLE })).toBeVisible();
    await waitFor(() => expect(screen.getByRole('heading', { level: 1 })).toHaveFocus());
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', PAGE_PATHS.auth);
    expect(calls.filter((c) => c.method === 'POST').map((c) => [c.path, c.body])).toEqual([
      ['/auth/verify-email', { token: 'tok_1' }],
    ]);
  });

  it('an expired link, or none, says how to get a new one', async () => {
    stubApi({
      'GET /auth/session': () => signedIn(false),
      'POST /auth/verify-email': () => ({
        status: 400,
        body: { code: 'email_link_expired', message: EMAIL_VERIFY_EXPIRED },
      }),
    });
    renderAt('/verify-email?token=old');
    expect(await screen.findByText(EMAIL_VERIFY_EXPIRED)).toBeVisible();
    expect(await screen.findByRole('link', { name: 'Go to your dashboard' })).toHaveAttribute(
      'href',
      PAGE_PATHS.dashboard,
    );
  });
});
