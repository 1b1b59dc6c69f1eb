import { createBrowserRouter, matchRoutes, type RouteObject } from 'react-router';
import { PublicLayout } from './layouts/public-layout';
import { RootLayout } from './layouts/root-layout';
import { RouteError } from './routes/route-error';

/** Pages that talk to the API get the query cache; the marketing pages do without it. */
const withQueries = () => import('./layouts/query-layout');

/** Each page is its own chunk: public pages never load the dashboard's code. */
export const routes: RouteObject[] = [
  {
    Component: RootLayout,
    errorElement: <RouteError />,
    children: [
      {
        Component: PublicLayout,
        children: [
          { index: true, lazy: () => import('./routes/home') },
          { path: 'how-it-works', lazy: () => import('./routes/how-it-works') },
          { path: 'pricing', lazy: () => import('./routes/pricing') },
          { path: 'about', lazy: () => import('./routes/about') },
          { path: 'faq', lazy: () => import('./routes/faq') },
          { path: 'privacy', lazy: () => import('./routes/privacy') },
          { path: 'terms', lazy: () => import('./routes/terms') },
          {
            lazy: withQueries,
            children: [
              { path: 'contact', lazy: () => import('./routes/contact') },
              { path: 'auth', lazy: () => import('./routes/auth') },
            ],
          },
          { path: '*', lazy: () => import('./routes/not-found') },
        ],
      },
      {
        lazy: withQueries,
        children: [
          {
            path: 'dashboard',
            lazy: () => import('./layouts/dashboard-layout'),
            children: [
              { index: true, lazy: () => import('./routes/dashboard-home') },
              { path: 'rides', lazy: () => import('./routes/dashboard-rides') },
              { path: 'requests', lazy: () => import('./routes/dashboard-requests') },
              { path: 'browse-rides', lazy: () => import('./routes/dashboard-browse-rides') },
              { path: 'browse-requests', lazy: () => import('./routes/dashboard-browse-requests') },
              { path: 'bookings', lazy: () => import('./routes/dashboard-bookings') },
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

export function createRouter() {
  return createBrowserRouter(routes);
}
