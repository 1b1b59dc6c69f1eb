import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import {
  BrowserRouter,
  matchRoutes,
  MemoryRouter,
  Outlet,
  useLocation,
  useParams,
  useResolvedPath,
  useRoutes,
  type RouteObject,
} from 'react-router';
import { describe, expect, it } from 'vitest';
import {
  bookingDetailPath,
  DASHBOARD_PATHS,
  DETAIL_PATHS,
  PAGE_PATHS,
  PUBLIC_PATHS,
  requestDetailPath,
} from '@shared/routes';
import { keptRoutes, routes } from './router';

/** The route a path lands on: the deepest match's path, or 'index' for an index route. */
function landing(pathname: string) {
  const matches = matchRoutes(routes, pathname) ?? [];
  const last = matches[matches.length - 1]?.route;
  return last?.index ? 'index' : last?.path;
}

describe('router', () => {
  it.each(Object.entries(PAGE_PATHS))('routes %s (%s) to its own page, not the 404 page', (_name, path) => {
    const route = landing(path);
    expect(route).toBeDefined();
    expect(route).not.toBe('*');
  });

  it('routes a request or booking id to its page', () => {
    const id = '0b6f7e4c-2f7a-4d1e-9c51-3f1a2b3c4d5e';
    expect(landing(requestDetailPath(id))).toBe(PAGE_PATHS.requestDetail);
    expect(landing(bookingDetailPath(id))).toBe(PAGE_PATHS.bookingDetail);
  });

  it('sends any other path to the 404 page', () => {
    expect(landing('/dashboard/nope')).toBe('*');
    expect(landing('/pricing/extra')).toBe('*');
  });

  it('the server knows exactly the pages of the table', () => {
    expect(new Set([...PUBLIC_PATHS, ...DASHBOARD_PATHS, ...DETAIL_PATHS])).toEqual(new Set(Object.values(PAGE_PATHS)));
  });
});

/** What a page can read of where it is: its params, its match's resolved paths, the location. */
function Probe({ name }: { name: string }) {
  const params = useParams();
  const here = useResolvedPath('.');
  const up = useResolvedPath('..');
  const location = useLocation();
  return (
    <p data-probe={name}>
      {JSON.stringify({ params, here: here.pathname, up: up.pathname, at: location.pathname + location.search })}
      <Outlet />
    </p>
  );
}

const probeTable: RouteObject[] = [
  {
    element: <Probe name="root" />,
    children: [
      { index: true, element: <Probe name="home" /> },
      { path: 'faq', element: <Probe name="faq" /> },
      {
        path: 'dashboard',
        element: <Probe name="dashboard" />,
        children: [
          { index: true, element: <Probe name="overview" /> },
          { path: 'bookings/:id', element: <Probe name="booking" /> },
          { path: 'files/*', element: <Probe name="files" /> },
        ],
      },
      { path: '*', element: <Probe name="not-found" /> },
    ],
  },
];

describe('keptRoutes', () => {
  const kept = keptRoutes(probeTable);
  function ByUseRoutes() {
    return useRoutes(probeTable);
  }
  // A MemoryRouter keeps the address decoded; a BrowserRouter (the app's) encodes it again (encodeLocation).
  const at = (path: string, Routes: () => ReactNode) => {
    window.history.replaceState(null, '', path);
    return [
      renderToString(
        <MemoryRouter initialEntries={[path]}>
          <Routes />
        </MemoryRouter>,
      ),
      renderToString(
        <BrowserRouter>
          <Routes />
        </BrowserRouter>,
      ),
    ];
  };

  it.each([
    '/',
    '/faq',
    '/faq?q=pay',
    '/dashboard',
    '/dashboard/',
    '/dashboard/bookings/0b6f7e4c-2f7a-4d1e-9c51-3f1a2b3c4d5e',
    '/dashboard/bookings/a%20b%3Fc',
    '/dashboard/files/one/two%20three',
    '/dashboard/nope/deeper',
    '/Caf%C3%A9 au lait',
    '/100%25 local',
  ])('renders %s as useRoutes does', (path) => {
    const expected = at(path, ByUseRoutes);
    for (const html of expected) expect(html).toContain('data-probe');
    expect(at(path, kept.Routes)).toEqual(expected);
  });

  it('matches each address once, and again only after the address changed', () => {
    const first = kept.matchesAt('/faq');
    expect(first?.at(-1)?.route.path).toBe('faq');
    expect(kept.matchesAt('/faq')).toBe(first);
    expect(kept.matchesAt('/dashboard')?.at(-1)?.route.index).toBe(true);
  });
});
