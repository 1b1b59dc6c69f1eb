import { screen, within } from '@testing-library/react';
import { Route, Routes } from '@/test/routes';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PAGE_PATHS } from '@shared/routes';
import { Component as DashboardLayout } from '@/app/layouts/dashboard-layout';
import { ADA, makeAdminDispute, SAM } from '@/test/factories';
import { sessionOf } from '@/test/moderation';
import { renderWithProviders, stubApi } from '@/test/render';
import { Component as AdminDisputesRoute } from './dashboard-admin-disputes';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** The dashboard shell at /dashboard/admin/disputes, signed in as `user`. */
function renderAt(user: ReturnType<typeof sessionOf>) {
  const calls = stubApi({
    'GET /auth/session': () => ({ body: user }),
    'GET /admin/disputes': () => ({ body: { items: [makeAdminDispute()], next_cursor: null } }),
  });
  renderWithProviders(
    <Routes>
      <Route path={PAGE_PATHS.dashboard} element={<DashboardLayout />}>
        <Route path={PAGE_PATHS.adminDisputes} element={<AdminDisputesRoute />} />
      </Route>
    </Routes>,
    { route: PAGE_PATHS.adminDisputes },
  );
  return calls;
}

const sidebar = () => screen.getByRole('complementary', { name: 'Dashboard navigation' });

describe('Disputes page and link', () => {
  it("an admin has 'Disputes' in the sidebar, after the other admin links, and sees the open disputes", async () => {
    renderAt(sessionOf(SAM, true));
    expect(await screen.findByRole('heading', { level: 1, name: 'Disputes' })).toBeVisible();
    // The moderators' links come just after the first screen (app/layouts/admin-nav-links.tsx).
    const link = await within(sidebar()).findByRole('link', { name: 'Disputes' });
    expect(link).toHaveAttribute('href', PAGE_PATHS.adminDisputes);
    const names = [...sidebar().querySelectorAll('a')].map((a) => a.textContent);
    expect(names.indexOf('Disputes')).toBe(names.indexOf('All payments') + 1);
    expect(await screen.findByRole('article', { name: 'Damaged: Feed sacks' })).toBeVisible();
  });

  it("anyone else has no 'Disputes' link and gets the not-found page, without asking the API", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const calls = renderAt(sessionOf(ADA));
    expect(await screen.findByText('Oops! Page not found')).toBeVisible();
    expect(within(sidebar()).queryByRole('link', { name: 'Disputes' })).not.toBeInTheDocument();
    expect(calls.some((c) => c.path.startsWith('/admin'))).toBe(false);
  });
});
