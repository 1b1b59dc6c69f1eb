import { PAGE_PATHS } from '@shared/routes';
import { setPagePreloader } from '@/lib/page-preloader';
import { createRoutes, type RouteNode } from '@/lib/router';
import { lazyPage, type LazyPage } from './lazy-page';
import { PublicLayout } from './layouts/public-layout';
import { RootLayout } from './layouts/root-layout';

/**
 * Rendered without waiting for tailwind-merge (lazyPage's loadClassMerger): the marketing pages and the dashboard's
 * first screen, whose class lists are conflict-free (src/client/app/first-screen-classes.test.tsx).
 */
const CONFLICT_FREE = { classMerger: false };

/**
 * Pages that talk to the API get the query cache; the marketing pages do without it. The layout renders once the
 * cache kept on the device is restored.
 */
const QueryLayout = lazyPage(
  () =>
    import('./layouts/query-layout').then(async ({ Component, cacheRestored }) => {
      await cacheRestored;
      return { Component };
    }),
  CONFLICT_FREE,
);

/**
 * Each page is its own chunk: public pages never load the dashboard's code. Paths: src/shared/routes.ts. A plain
 * route table (src/client/lib/router.tsx, docs/decisions/043-wouter-router.md): layouts render their page with
 * Outlet, the pages load through lazyPage, errors stop at RootLayout's boundary.
 */
export const routes: RouteNode[] = [
  {
    Component: RootLayout,
    children: [
      {
        Component: PublicLayout,
        children: [
          { index: true, Component: lazyPage(() => import('./routes/home'), CONFLICT_FREE) },
          { path: PAGE_PATHS.howItWorks, Component: lazyPage(() => import('./routes/how-it-works'), CONFLICT_FREE) },
          { path: PAGE_PATHS.pricing, Component: lazyPage(() => import('./routes/pricing'), CONFLICT_FREE) },
          { path: PAGE_PATHS.about, Component: lazyPage(() => import('./routes/about'), CONFLICT_FREE) },
          { path: PAGE_PATHS.faq, Component: lazyPage(() => import('./routes/faq'), CONFLICT_FREE) },
          { path: PAGE_PATHS.privacy, Component: lazyPage(() => import('./routes/privacy'), CONFLICT_FREE) },
          { path: PAGE_PATHS.terms, Component: lazyPage(() => import('./routes/terms'), CONFLICT_FREE) },
          // Without the query layout: its forms load what they need when first used (issue 34).
          { path: PAGE_PATHS.auth, Component: lazyPage(() => import('./routes/auth')) },
          {
            Component: QueryLayout,
            children: [
              { path: PAGE_PATHS.contact, Component: lazyPage(() => import('./routes/contact')) },
              { path: PAGE_PATHS.forgotPassword, Component: lazyPage(() => import('./routes/forgot-password')) },
              { path: PAGE_PATHS.resetPassword, Component: lazyPage(() => import('./routes/reset-password')) },
              { path: PAGE_PATHS.confirmEmail, Component: lazyPage(() => import('./routes/confirm-email')) },
              { path: PAGE_PATHS.verifyEmail, Component: lazyPage(() => import('./routes/verify-email')) },
              { path: PAGE_PATHS.unsubscribe, Component: lazyPage(() => import('./routes/unsubscribe')) },
            ],
          },
          { path: '*', Component: lazyPage(() => import('./routes/not-found'), CONFLICT_FREE) },
        ],
      },
      {
        Component: QueryLayout,
        children: [
          {
            path: PAGE_PATHS.dashboard,
            Component: lazyPage(() => import('./layouts/dashboard-layout'), CONFLICT_FREE),
            children: [
              { index: true, Component: lazyPage(() => import('./routes/dashboard-home'), CONFLICT_FREE) },
              { path: PAGE_PATHS.myRides, Component: lazyPage(() => import('./routes/dashboard-rides')) },
              { path: PAGE_PATHS.myRequests, Component: lazyPage(() => import('./routes/dashboard-requests')) },
              { path: PAGE_PATHS.requestDetail, Component: lazyPage(() => import('./routes/dashboard-request')) },
              { path: PAGE_PATHS.browseRides, Component: lazyPage(() => import('./routes/dashboard-browse-rides')) },
              {
                path: PAGE_PATHS.browseRequests,
                Component: lazyPage(() => import('./routes/dashboard-browse-requests')),
              },
              { path: PAGE_PATHS.myBookings, Component: lazyPage(() => import('./routes/dashboard-bookings')) },
              { path: PAGE_PATHS.bookingDetail, Component: lazyPage(() => import('./routes/dashboard-booking')) },
              { path: PAGE_PATHS.messages, Component: lazyPage(() => import('./routes/dashboard-messages')) },
              { path: PAGE_PATHS.settings, Component: lazyPage(() => import('./routes/dashboard-settings')) },
              {
                path: PAGE_PATHS.notifications,
                Component: lazyPage(() => import('./routes/dashboard-notifications')),
              },
              {
                path: PAGE_PATHS.notificationSettings,
                Component: lazyPage(() => import('./routes/dashboard-notification-settings')),
              },
              { path: PAGE_PATHS.alerts, Component: lazyPage(() => import('./routes/dashboard-alerts')) },
              { path: PAGE_PATHS.planSettings, Component: lazyPage(() => import('./routes/dashboard-plan')) },
              { path: PAGE_PATHS.payments, Component: lazyPage(() => import('./routes/dashboard-payments')) },
              { path: PAGE_PATHS.receipt, Component: lazyPage(() => import('./routes/dashboard-receipt')) },
              { path: PAGE_PATHS.alongRoute, Component: lazyPage(() => import('./routes/dashboard-along-route')) },
              {
                path: PAGE_PATHS.adminReports,
                Component: lazyPage(() => import('./routes/dashboard-admin-reports')),
              },
              {
                path: PAGE_PATHS.adminPayments,
                Component: lazyPage(() => import('./routes/dashboard-admin-payments')),
              },
              {
                path: PAGE_PATHS.adminDisputes,
                Component: lazyPage(() => import('./routes/dashboard-admin-disputes')),
              },
              {
                path: PAGE_PATHS.adminVerifications,
                Component: lazyPage(() => import('./routes/dashboard-admin-verifications')),
              },
              {
                path: PAGE_PATHS.adminSupport,
                Component: lazyPage(() => import('./routes/dashboard-admin-support')),
              },
              { path: PAGE_PATHS.profile, Component: lazyPage(() => import('./routes/dashboard-profile')) },
            ],
          },
        ],
      },
    ],
  },
];

const app = createRoutes(routes);

/** The app's pages at the current address (inside BrowserRouter, or the prerender's StaticRouter). */
export const AppRoutes = app.Routes;

/** The pages and layouts at `pathname` (outermost first), or null. */
export const matchesAt = app.matchesAt;

/**
 * Loads the code of every page and layout matching `pathname`, so the first render has them all (required to
 * hydrate prerendered HTML without a mismatch, and no loading flash otherwise).
 */
export async function resolveLazyRoutes(pathname: string): Promise<void> {
  const matches = app.matchesAt(pathname) ?? [];
  await Promise.all(matches.map(({ route }) => (route.Component as Partial<LazyPage> | null | undefined)?.preload?.()));
}

setPagePreloader(resolveLazyRoutes);
