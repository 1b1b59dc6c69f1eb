import { createBrowserRouter, type RouteObject } from 'react-router';
import { PublicLayout } from './layouts/public-layout';
import { RouteError } from './routes/route-error';

/** Each page is its own chunk: public pages never load the dashboard's code. */
export const routes: RouteObject[] = [
  {
    errorElement: <RouteError />,
    children: [
      {
        Component: PublicLayout,
        children: [
          { index: true, lazy: () => import('./routes/home') },
          { path: 'auth', lazy: () => import('./routes/auth') },
          { path: '*', lazy: () => import('./routes/not-found') },
        ],
      },
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
];

export function createRouter() {
  return createBrowserRouter(routes);
}
