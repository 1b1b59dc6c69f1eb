import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StrictMode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EMAIL_CHANGED_TOAST, EMAIL_LINK_EXPIRED } from '@shared/account';
import { PAGE_PATHS } from '@shared/routes';
import { renderWithProviders, stubApi } from '@/test/render';
import { ConfirmEmailPage } from './confirm-email-page';
import { findToast } from '@/test/find-toast';

afterEach(() => vi.unstubAllGlobals());

const NEXT = 'rosa.new@example.com';
const SIGNED_OUT = { body: { user: null, session: null } };
const SIGNED_IN = {
  body: {
    user: { id: 'u1', email: NEXT, full_name: 'Rosa Miller', is_admin: false, email_verified: true },
    session: { aal: 'aal1', idle_expires_at: '2026-12-01T00:00:00.000Z', expires_at: '2026-12-01T00:00:00.000Z' },
  },
};
const EXPIRED = { status: 400, body: { code: 'email_link_expired', message: EMAIL_LINK_EXPIRED } };

const renderAt = (route: string) =>
  renderWithProviders(
    <StrictMode>
      <ConfirmEmailPage />
    </StrictMode>,
    { route },
  );
const heading = () => screen.getByRole('heading', { level: 1 });

describe('Confirm email page', () => {
  it("posts the link's token once as it opens, then shows 'Email changed', the new address and 'Sign in'", async () => {
    const calls = stubApi({
      'GET /auth/session': () => SIGNED_OUT,
      'POST /auth/confirm-email': () => ({ body: { email: NEXT } }),
    });
    renderAt('/confirm-email?token=tok_A-1');
    expect(heading()).toHaveTextContent('Confirm your new email');
    expect(await screen.findByRole('heading', { level: 1, name: EMAIL_CHANGED_TOAST })).toBeVisible();
    await findToast(EMAIL_CHANGED_TOAST);
    expect(screen.getByText(NEXT)).toBeVisible();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', PAGE_PATHS.auth);
    await waitFor(() => expect(heading()).toHaveFocus());
    expect(calls.filter((c) => c.method === 'POST').map((c) => [c.path, c.body])).toEqual([
      ['/auth/confirm-email', { token: 'tok_A-1' }],
    ]);
  });

  it("offers 'Go to Settings' when this browser is signed in", async () => {
    stubApi({
      'GET /auth/session': () => SIGNED_IN,
      'POST /auth/confirm-email': () => ({ body: { email: NEXT } }),
    });
    renderAt('/confirm-email?token=tok');
    expect(await screen.findByRole('link', { name: 'Go to Settings' })).toHaveAttribute('href', PAGE_PATHS.settings);
  });

  it('an expired, used or unknown link says so, with a link to Settings to ask again', async () => {
    stubApi({ 'GET /auth/session': () => SIGNED_OUT, 'POST /auth/confirm-email': () => EXPIRED });
    renderAt('/confirm-email?token=old');
    const link = await screen.findByRole('link', { name: 'Ask for a new one' });
    expect(link).toHaveAttribute('href', PAGE_PATHS.settings);
    expect(link.closest('p')).toHaveTextContent(EMAIL_LINK_EXPIRED);
    expect(heading()).not.toHaveTextContent(EMAIL_CHANGED_TOAST);
    expect(document.querySelectorAll('[data-sonner-toast]')).toHaveLength(0);
  });

  it('without a token it asks nothing and shows the expired message', async () => {
    const calls = stubApi({ 'GET /auth/session': () => SIGNED_OUT });
    renderAt('/confirm-email');
    expect(await screen.findByRole('link', { name: 'Ask for a new one' })).toBeVisible();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('an address taken meanwhile shows the server’s words', async () => {
    const taken = 'An account with this email already exists. Please sign in instead.';
    stubApi({
      'GET /auth/session': () => SIGNED_OUT,
      'POST /auth/confirm-email': () => ({ status: 409, body: { code: 'email_taken', message: taken } }),
    });
    renderAt('/confirm-email?token=tok');
    expect(await screen.findByText(taken)).toBeVisible();
    expect(screen.getByRole('link', { name: 'Sign in' })).toBeVisible();
  });

  it("a failure on our side offers 'Try again', which posts the token again", async () => {
    let tries = 0;
    stubApi({
      'GET /auth/session': () => SIGNED_OUT,
      'POST /auth/confirm-email': () =>
        tries++ === 0
          ? { status: 500, body: { code: 'internal_error', message: 'Something went wrong on our side.' } }
          : { body: { email: NEXT } },
    });
    renderAt('/confirm-email?token=tok');
    expect(await screen.findByRole('alert')).toHaveTextContent("We couldn't change your email.");
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 1, name: EMAIL_CHANGED_TOAST })).toBeVisible();
    expect(tries).toBe(2);
  });
});
