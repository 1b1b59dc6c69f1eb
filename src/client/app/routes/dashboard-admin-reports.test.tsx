import { screen, within } from '@testing-library/react';
import { Route, Routes } from '@/test/routes';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PAGE_PATHS } from '@shared/routes';
import { Component as DashboardLayout } from '@/app/layouts/dashboard-layout';
import { ADA, SAM } from '@/test/factories';
import { makeAdminReport, sessionOf } from '@/test/moderation';
import { renderWithProviders, stubApi } from '@/test/render';
import { Component as AdminReportsRoute } from './dashboard-admin-reports';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** The dashboard shell at /dashboard/admin/reports, signed in as `user`. */
function renderAt(user: ReturnType<typeof sessionOf>) {
  const calls = stubApi({
    'GET /auth/session': () => ({ body: user }),
    'GET /admin/reports': () => ({ body: { items: [makeAdminReport()], next_cursor: null } }),
  });
  renderWithProviders(
    <Routes>
      <Route path={PAGE_PATHS.dashboard} element={<DashboardLayout />}>
        <Route path={PAGE_PATHS.adminReports} element={<AdminReportsRoute />} />
      </Route>
    </Routes>,
    { route: PAGE_PATHS.adminReports },
  );
  return calls;
}

const sidebar = () => screen.getByRole('complementary', { name: 'Dashboard navigation' });

describe('Reports page and link', () => {
  it("an admin has 'Reports' in the sidebar and sees the open reports", async () => {
    renderAt(sessionOf(SAM, true));
    expect(await screen.findByRole('heading', { level: 1, name: 'Reports' })).toBeVisible();
    expect(screen.queryByText('Oops! Page not found')).not.toBeInTheDocument();
    // The moderators' links come just after the first screen (app/layouts/admin-nav-links.tsx).
    expect(await within(sidebar()).findByRole('link', { name: 'Reports' })).toHaveAttribute(
      'href',
      PAGE_PATHS.adminReports,
    );
    expect(await screen.findByRole('article', { name: 'Report about Ada Field' })).toBeVisible();
  });

  it("anyone else has no 'Reports' link and gets the not-found page, without asking the API", async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const calls = renderAt(sessionOf(ADA));
    expect(await screen.findByText('Oops! Page not found')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Return to Home' })).toBeVisible();
    expect(within(sidebar()).queryByRole('link', { name: 'Reports' })).not.toBeInTheDocument();
    expect(calls.some((c) => c.path.startsWith('/admin'))).toBe(false);
    expect(logged).toHaveBeenCalled();
  });

  it("everyone has 'Settings' at the bottom of the sidebar, after the menu and before 'Sign Out'", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderAt(sessionOf(ADA));
    const aside = await screen.findByRole('complementary', { name: 'Dashboard navigation' });
    expect(within(aside).getByRole('link', { name: 'Settings' })).toHaveAttribute('href', PAGE_PATHS.settings);
    const items = [...aside.querySelectorAll('a, button')].map((el) => el.textContent);
    expect(items.slice(-2)).toEqual(['Settings', 'Sign Out']);
  });
});
