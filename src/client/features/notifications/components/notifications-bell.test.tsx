import { screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from '@/test/routes';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PAGE_PATHS } from '@shared/routes';
import { Component as DashboardLayout } from '@/app/layouts/dashboard-layout';
import { ADA } from '@/test/factories';
import { sessionOf } from '@/test/moderation';
import { renderWithProviders, stubApi } from '@/test/render';
import { NotificationsBell } from './notifications-bell';

afterEach(() => vi.unstubAllGlobals());

const unreadIs = (count: number) => stubApi({ 'GET /notifications/unread': () => ({ body: { count } }) });

describe('Notifications bell', () => {
  it('links to the notifications page; its name and its badge give the unread count', async () => {
    unreadIs(3);
    renderWithProviders(<NotificationsBell />);
    const bell = await screen.findByRole('link', { name: 'Notifications, 3 unread' });
    expect(bell).toHaveAttribute('href', PAGE_PATHS.notifications);
    const badge = within(bell).getByText('3');
    expect(badge).toBeVisible();
    expect(badge).toHaveAttribute('aria-hidden');
    // A 44px touch target with a visible focus ring.
    expect(bell).toHaveClass('h-11', 'w-11', 'focus-visible:ring-2');
  });

  it('has no badge at 0', async () => {
    const calls = unreadIs(0);
    renderWithProviders(<NotificationsBell />);
    await waitFor(() => expect(calls).toHaveLength(1));
    const bell = screen.getByRole('link', { name: 'Notifications' });
    await waitFor(() => expect(bell.textContent).toBe('Notifications'));
  });

  it("caps the badge at '99+' but says the whole number", async () => {
    unreadIs(150);
    renderWithProviders(<NotificationsBell />);
    const bell = await screen.findByRole('link', { name: 'Notifications, 150 unread' });
    expect(within(bell).getByText('99+')).toBeVisible();
  });

  it('is in the dashboard header', async () => {
    stubApi({
      'GET /auth/session': () => ({ body: sessionOf(ADA) }),
      'GET /notifications/unread': () => ({ body: { count: 1 } }),
    });
    renderWithProviders(
      <Routes>
        <Route path={PAGE_PATHS.dashboard} element={<DashboardLayout />}>
          <Route index element={<p>Home</p>} />
        </Route>
      </Routes>,
      { route: PAGE_PATHS.dashboard },
    );
    // The frame shown while the session is looked up has a header too (without the bell): wait for the bell.
    const bell = await screen.findByRole('link', { name: 'Notifications, 1 unread' });
    expect(bell).toBeVisible();
    expect(within(screen.getByRole('banner')).getByRole('link', { name: 'Notifications, 1 unread' })).toBe(bell);
  });
});
