import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { PAGE_PATHS } from '@shared/routes';
import { Component as DashboardLayout } from '@/app/layouts/dashboard-layout';
import { PublicLayout } from '@/app/layouts/public-layout';
import { Component as DashboardHomeRoute } from '@/app/routes/dashboard-home';
import { Component as AboutRoute } from '@/app/routes/about';
import { Component as FaqRoute } from '@/app/routes/faq';
import { Component as HomeRoute } from '@/app/routes/home';
import { Component as HowItWorksRoute } from '@/app/routes/how-it-works';
import { Component as NotFoundRoute } from '@/app/routes/not-found';
import { Component as PricingRoute } from '@/app/routes/pricing';
import { Component as PrivacyRoute } from '@/app/routes/privacy';
import { Component as TermsRoute } from '@/app/routes/terms';
import { routes } from '@/app/router';
import type { LazyPage } from '@/app/lazy-page';
import { twMerge } from '@/lib/class-merger';
import { setClassMerger } from '@/lib/utils';
import { ADA, SAM } from '@/test/factories';
import { sessionOf } from '@/test/moderation';
import { renderWithProviders, stubApi } from '@/test/render';
import { Route, Routes } from '@/test/routes';
import type { RouteNode } from '@/lib/router';

/**
 * The pages and layouts that render before tailwind-merge has loaded (lazyPage's `classMerger: false`: the
 * dashboard's first screen and the marketing pages) must come out the same without it: no element's class list may
 * hold two classes that tailwind-merge would reduce to one. Rendered here with `cn()` unmerged, in every state the
 * first screen has (loading frame, data, empty, error, banners, badges, admin links, the phone's open menu, offline),
 * and every element's classes checked against what tailwind-merge makes of them.
 */
beforeAll(() => setClassMerger(undefined));
afterAll(() => setClassMerger(twMerge));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** Every element whose class list tailwind-merge would change, with what it would make of it. */
function conflicts(root: ParentNode = document.body): string[] {
  return [...root.querySelectorAll('[class]')].flatMap((element) => {
    const classes = element.getAttribute('class')!.split(/\s+/).filter(Boolean).join(' ');
    const merged = twMerge(classes);
    return merged === classes ? [] : [`<${element.tagName.toLowerCase()}> "${classes}" -> "${merged}"`];
  });
}

const STATS = { active_rides: 3, open_requests: 2, total_bookings: 5, bookings_as_driver: 5, completed: 1 };
const ACTIVITY = [
  { id: 'a1', type: 'request_accepted', at: '2026-05-01T10:00:00Z', title: 'Feed', driver_name: 'Sam Lee' },
  { id: 'a2', type: 'ride_posted', at: '2026-04-30T10:00:00Z', origin: 'Oakville', destination: 'Millbrook' },
  {
    id: 'a3',
    type: 'booking_event',
    at: '2026-04-29T10:00:00Z',
    event: 'completed',
    booking_id: '5b8f5a3e-9d0c-4c1e-8f3a-2b6d7e9f1a20',
    title: 'Eggs',
    actor_name: 'Sam Lee',
    mine: false,
    my_role: 'requester',
  },
];

type Session = ReturnType<typeof sessionOf>;

/** The dashboard's first screen at /dashboard for `session`, with the API's answers as given. */
function renderDashboard(
  session: Session | 'pending',
  { dashboard = { stats: STATS, activity: ACTIVITY }, failing = false, unread = 2, planStatus = 'active' } = {},
) {
  stubApi({
    'GET /auth/session': () => (session === 'pending' ? new Promise(() => {}) : { body: session }),
    'GET /dashboard': () =>
      failing ? { status: 500, body: { code: 'internal_error', message: 'Down.' } } : { body: dashboard },
    'GET /notifications/unread': () => ({ body: { count: unread } }),
    'GET /messages/unread': () => ({ body: { conversations: unread } }),
    'GET /plan': () => ({ body: { plan: 'plus', status: planStatus } }),
  });
  renderWithProviders(
    <Routes>
      <Route path={PAGE_PATHS.dashboard} element={<DashboardLayout />}>
        <Route index element={<DashboardHomeRoute />} />
      </Route>
    </Routes>,
    { route: PAGE_PATHS.dashboard },
  );
}

/** Every route node of the app's table, flattened. */
const allRoutes = (nodes: RouteNode[]): RouteNode[] => nodes.flatMap((n) => [n, ...allRoutes(n.children ?? [])]);

describe('what renders before tailwind-merge has loaded', () => {
  it('is exactly the dashboard layout and home, the query layout and the marketing pages', () => {
    // A page added without the merger would need to be checked here too: this names them all.
    const unmerged = allRoutes(routes)
      .filter((r) => (r.Component as Partial<LazyPage> | undefined)?.classMerger === false)
      .map((r) => (r.index ? `${r.path ?? ''}(index)` : (r.path ?? '(layout)')));
    expect(unmerged.sort()).toEqual(
      [
        // The query layout, above the public pages that talk to the API and above the dashboard.
        '(layout)',
        '(layout)',
        PAGE_PATHS.dashboard,
        '(index)',
        '(index)',
        PAGE_PATHS.howItWorks,
        PAGE_PATHS.pricing,
        PAGE_PATHS.about,
        PAGE_PATHS.faq,
        PAGE_PATHS.privacy,
        PAGE_PATHS.terms,
        '*',
      ].sort(),
    );
    // Every other page waits for it.
    expect(allRoutes(routes).some((r) => (r.Component as Partial<LazyPage> | undefined)?.classMerger)).toBe(true);
  });

  it('the dashboard frame while the session is looked up', async () => {
    renderDashboard('pending');
    expect(await screen.findByText('Loading...')).toBeVisible();
    expect(conflicts()).toEqual([]);
  });

  it('the dashboard with activity, unread badges, an unconfirmed address and a failed renewal', async () => {
    const session = sessionOf(ADA, false, 'plus');
    session.user!.email_verified = false;
    renderDashboard(session, { planStatus: 'past_due' });
    expect(await screen.findByRole('heading', { name: 'Welcome back!' })).toBeVisible();
    expect(await screen.findByText('Sam Lee accepted your request "Feed"')).toBeVisible();
    expect(await screen.findByRole('alert')).toBeVisible();
    await waitFor(() => expect(screen.getByRole('link', { name: /Notifications/ })).toHaveTextContent('2'));
    expect(conflicts()).toEqual([]);
  });

  it('an admin with no activity, offline', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    renderDashboard(sessionOf(SAM, true), { dashboard: { stats: STATS, activity: [] }, unread: 0 });
    expect(await screen.findByText(/No recent activity yet/)).toBeVisible();
    expect(await screen.findByRole('link', { name: 'Reports' })).toBeVisible();
    expect(conflicts()).toEqual([]);
  });

  it("the dashboard's error with its retry", async () => {
    renderDashboard(sessionOf(ADA), { failing: true });
    expect(await screen.findByRole('button', { name: /Try again|Retry/ })).toBeVisible();
    expect(conflicts()).toEqual([]);
  });

  it("a phone's menu, opened", async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query.includes('max-width'),
      media: query,
      addEventListener() {},
      removeEventListener() {},
    }));
    renderDashboard(sessionOf(ADA));
    expect(await screen.findByRole('heading', { name: 'Welcome back!' })).toBeVisible();
    await userEvent.setup().click(screen.getByRole('button', { name: /menu|sidebar/i }));
    expect(await screen.findByRole('link', { name: 'My Rides' })).toBeVisible();
    expect(conflicts()).toEqual([]);
  });

  it.each([
    ['/', HomeRoute],
    [PAGE_PATHS.howItWorks, HowItWorksRoute],
    [PAGE_PATHS.pricing, PricingRoute],
    [PAGE_PATHS.about, AboutRoute],
    [PAGE_PATHS.faq, FaqRoute],
    [PAGE_PATHS.privacy, PrivacyRoute],
    [PAGE_PATHS.terms, TermsRoute],
    ['/no-such-page', NotFoundRoute],
  ])('the marketing page %s, with its menu open', async (path, Page) => {
    renderWithProviders(
      <Routes>
        <Route element={<PublicLayout />}>
          <Route path={path} element={<Page />} />
        </Route>
      </Routes>,
      { route: path },
    );
    expect(await screen.findByRole('heading', { level: 1 })).toBeVisible();
    // The phone's menu is a <details> (it works before the script has loaded).
    await userEvent.setup().click(screen.getByText('Open menu'));
    expect(screen.getByRole('navigation', { name: 'Mobile' })).toBeVisible();
    expect(conflicts()).toEqual([]);
  });
});
