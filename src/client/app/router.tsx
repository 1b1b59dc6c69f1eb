import { createBrowserRouter, matchRoutes, type RouteObject } from 'react-router';
import { PAGE_PATHS } from '@shared/routes';
import { PublicLayout } from './layouts/public-layout';
import { RootLayout } from './layouts/root-layout';
import { RouteError } from './routes/route-error';

/**
 * Pages that talk to the API get the query cache; the marketing pages do without it. The layout renders once the
 * cache kept on the device is restored.
 */
const withQueries = () =>
  import('./layouts/query-layout').then(async ({ Component, cacheRestored }) => {
    await cacheRestored;
    return { Component };
  });

/** Each page is its own chunk: public pages never load the dashboard's code. Paths: src/shared/routes.ts. */
export const routes: RouteObject[] = [
  {
    Component: RootLayout,
    errorElement: <RouteError />,
    children: [
      {
        Component: PublicLayout,
        children: [
          { index: true, lazy: () => import('./routes/home') },
          { path: PAGE_PATHS.howItWorks, lazy: () => import('./routes/how-it-works') },
          { path: PAGE_PATHS.pricing, lazy: () => import('./routes/pricing') },
          { path: PAGE_PATHS.about, lazy: () => import('./routes/about') },
          { path: PAGE_PATHS.faq, lazy: () => import('./routes/faq') },
          { path: PAGE_PATHS.privacy, lazy: () => import('./routes/privacy') },
          { path: PAGE_PATHS.terms, lazy: () => import('./routes/terms') },
          {
            lazy: withQueries,
            children: [
              { path: PAGE_PATHS.contact, lazy: () => import('./routes/contact') },
              { path: PAGE_PATHS.auth, lazy: () => import('./routes/auth') },
              { path: PAGE_PATHS.forgotPassword, lazy: () => import('./routes/forgot-password') },
              { path: PAGE_PATHS.resetPassword, lazy: () => import('./routes/reset-password') },
              { path: PAGE_PATHS.confirmEmail, lazy: () => import('./routes/confirm-email') },
              { path: PAGE_PATHS.unsubscribe, lazy: () => import('./routes/unsubscribe') },
            ],
          },
          { path: '*', lazy: () => import('./routes/not-found') },
        ],
      },
      {
        lazy: withQueries,
        children: [
          {
            path: PAGE_PATHS.dashboard,
            lazy: () => import('./layouts/dashboard-layout'),
            children: [
              { index: true, lazy: () => import('./routes/dashboard-home') },
              { path: PAGE_PATHS.myRides, lazy: () => import('./routes/dashboard-rides') },
              { path: PAGE_PATHS.myRequests, lazy: () => import('./routes/dashboard-requests') },
              { path: PAGE_PATHS.requestDetail, lazy: () => import('./routes/dashboard-request') },
              { path: PAGE_PATHS.browseRides, lazy: () => import('./routes/dashboard-browse-rides') },
              { path: PAGE_PATHS.browseRequests, lazy: () => import('./routes/dashboard-browse-requests') },
              { path: PAGE_PATHS.myBookings, lazy: () => import('./routes/dashboard-bookings') },
              { path: PAGE_PATHS.bookingDetail, lazy: () => import('./routes/dashboard-booking') },
              { path: PAGE_PATHS.messages, lazy: () => import('./routes/dashboard-messages') },
              { path: PAGE_PATHS.settings, lazy: () => import('./routes/dashboard-settings') },
              { path: PAGE_PATHS.notifications, lazy: () => import('./routes/dashboard-notifications') },
              {
                path: PAGE_PATHS.notificationSettings,
                lazy: () => import('./routes/dashboard-notification-settings'),
              },
              { path: PAGE_PATHS.alerts, lazy: () => import('./routes/dashboard-alerts') },
              { path: PAGE_PATHS.alongRoute, lazy: () => import('./routes/dashboard-along-route') },
              { path: PAGE_PATHS.adminReports, lazy: () => import('./routes/dashboard-admin-reports') },
              { path: PAGE_PATHS.profile, lazy: () => import('./routes/dashboard-profile') },
            ],
          },
        ],
      },
    ],
  },
];

/**
 * Loads the code of every lazy route matching `pathname` and writes it into the route objects, so the first
 * render has the page (required to hydrate prerendered HTML without a mismatch, and no loading flash otherwise).
 */
export async function resolveLazyRoutes(pathname: string, table: RouteObject[] = routes): Promise<void> {
  const matches = matchRoutes(table, pathname) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      const loaded = await route.lazy();
      Object.assign(route, loaded, { lazy: undefined });
    }),
  );
}

/**
 * `prerendered`: the page's HTML is already shown, and the person may have scrolled it while the script loaded.
 * Without hydration data, ScrollRestoration scrolls a new page to the top when it mounts: on a slow phone that
 * threw the page back to its top under their finger, and a tap meant for a footer link hit the hero (issue 34).
 * With it, the first render keeps where they are (a reload still gets its saved position back).
 */
export function createRouter({ prerendered = false } = {}) {
  return createBrowserRouter(routes, prerendered ? { hydrationData: { loaderData: {} } } : undefined);
}
