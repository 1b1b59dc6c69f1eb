import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PAGE_PATHS } from '@shared/routes';
import { ADA, SAM } from '@/test/factories';
import { makeBlocked } from '@/test/moderation';
import { emptyPage, renderWithProviders, stubApi } from '@/test/render';
import { SettingsPage } from './settings-page';

afterEach(() => vi.unstubAllGlobals());

const section = () => screen.getByRole('region', { name: 'Blocked people' });

describe('Settings page', () => {
  it("has the title 'Settings' and a 'Blocked people' section listing whom I blocked and when", async () => {
    stubApi({
      'GET /blocks': () => ({
        body: {
          items: [makeBlocked(ADA, '2026-05-03T12:00:00.000Z'), makeBlocked(SAM, '2026-04-20T12:00:00.000Z')],
          next_cursor: null,
        },
      }),
    });
    renderWithProviders(<SettingsPage />);
    expect(screen.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
    const list = await within(section()).findByRole('list', { name: 'Blocked people' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows.map((r) => r.textContent)).toEqual([
      'Ada FieldBlocked on May 3, 2026Unblock',
      'Sam LeeBlocked on April 20, 2026Unblock',
    ]);
    expect(within(rows[0]!).getByRole('button', { name: 'Unblock Ada Field' })).toHaveTextContent('Unblock');
  });

  it("has a 'Notifications' section leading to the notification settings", () => {
    stubApi({ 'GET /blocks': () => ({ body: emptyPage }) });
    renderWithProviders(<SettingsPage />);
    const notifications = screen.getByRole('region', { name: 'Notifications' });
    expect(within(notifications).getByRole('link', { name: 'Notification settings' })).toHaveAttribute(
      'href',
      PAGE_PATHS.notificationSettings,
    );
  });

  it('has its sections in order: Profile, Email, Password, Sessions, Two-factor, Plan, Try new features first, Payouts, Notifications, Alerts, Blocked people, Your data, Delete account', async () => {
    stubApi({
      'GET /blocks': () => ({ body: emptyPage }),
      'GET /account/profile': () => ({ body: { full_name: 'Ada Field', about: null, email: 'ada@example.com' } }),
      'GET /account/sessions': () => ({ body: { items: [] } }),
      'GET /account/early-access': () => ({ body: { on: false, saved: false, available: false } }),
      'GET /payments/payouts': () => ({
        body: { state: 'not_set_up', last4: null, onboarding_url: null, provider: 'test', test_mode: true },
      }),
    });
    renderWithProviders(<SettingsPage />);
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([
      'Profile',
      'Email',
      'Verification',
      'Password',
      'Sessions',
      'Two-factor authentication',
      'Plan',
      'Try new features first',
      'Payouts',
      'Notifications',
      'Alerts',
      'Blocked people',
      'Your data',
      'Delete account',
    ]);
    expect(await within(screen.getByRole('region', { name: 'Profile' })).findByLabelText('Full name')).toHaveValue(
      'Ada Field',
    );
    expect(within(screen.getByRole('region', { name: 'Password' })).getByLabelText('Current password')).toBeVisible();
    expect(
      await within(screen.getByRole('region', { name: 'Sessions' })).findByRole('button', {
        name: 'Sign out of all other sessions',
      }),
    ).toBeDisabled();
  });

  it("has an 'Alerts' section leading to my saved searches and route alerts", () => {
    stubApi({ 'GET /blocks': () => ({ body: emptyPage }) });
    renderWithProviders(<SettingsPage />);
    const alerts = screen.getByRole('region', { name: 'Alerts' });
    expect(within(alerts).getByRole('link', { name: 'Alerts' })).toHaveAttribute('href', PAGE_PATHS.alerts);
  });

  it("says so when I haven't blocked anyone", async () => {
    stubApi({ 'GET /blocks': () => ({ body: emptyPage }) });
    renderWithProviders(<SettingsPage />);
    expect(await within(section()).findByText("You haven't blocked anyone.")).toBeVisible();
  });

  it("'Unblock' unblocks at once, toasts 'Unblocked', reloads the list and keeps focus in the section", async () => {
    let blocked = [makeBlocked(ADA)];
    const calls = stubApi({
      'GET /blocks': () => ({ body: { items: blocked, next_cursor: null } }),
      [`DELETE /blocks/${ADA.id}`]: () => {
        blocked = [];
        return { status: 204 };
      },
    });
    const user = userEvent.setup();
    renderWithProviders(<SettingsPage />);
    await user.click(await screen.findByRole('button', { name: 'Unblock Ada Field' }));
    expect(await screen.findByText('Unblocked')).toBeVisible();
    expect(await within(section()).findByText("You haven't blocked anyone.")).toBeVisible();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([`/blocks/${ADA.id}`]);
    await waitFor(() => expect(within(section()).getByRole('heading', { name: 'Blocked people' })).toHaveFocus());
  });

  it("pages with 'Load more'", async () => {
    const calls = stubApi({
      'GET /blocks': ({ path }) =>
        path.includes('cursor=')
          ? { body: { items: [makeBlocked(SAM)], next_cursor: null } }
          : { body: { items: [makeBlocked(ADA)], next_cursor: 'next-1' } },
    });
    const user = userEvent.setup();
    renderWithProviders(<SettingsPage />);
    await user.click(await screen.findByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('Sam Lee')).toBeVisible();
    expect(screen.getByText('Ada Field')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(calls.map((c) => c.path).filter((p) => p.startsWith('/blocks'))).toEqual([
      '/blocks?limit=20',
      '/blocks?limit=20&cursor=next-1',
    ]);
  });
});
