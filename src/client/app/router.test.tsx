import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense, lazy } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import {
  BrowserRouter,
  createRoutes,
  Link,
  MemoryRouter,
  NavLink,
  Outlet,
  StaticRouter,
  useLocation,
  useNavigate,
  useNavigationType,
  useParams,
  useSearchParams,
  type RouteNode,
} from '@/lib/router';
import {
  bookingDetailPath,
  DASHBOARD_PATHS,
  DETAIL_PATHS,
  PAGE_PATHS,
  PUBLIC_PATHS,
  requestDetailPath,
} from '@shared/routes';
import { matchesAt } from './router';

/** The route a path lands on: the deepest match's path, or 'index' for an index route. */
function landing(pathname: string) {
  const matches = matchesAt(pathname) ?? [];
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

/** What a page can read of where it is: its params and the location; its layout's page below it. */
function Probe({ name }: { name: string }) {
  const params = useParams();
  const location = useLocation();
  return (
    <p data-probe={name}>
      {JSON.stringify({ params, at: location.pathname + location.search })}
      <Outlet />
    </p>
  );
}

const probeTable: RouteNode[] = [
  {
    element: <Probe name="root" />,
    children: [
      { index: true, element: <Probe name="home" /> },
      { path: '/faq', element: <Probe name="faq" /> },
      {
        path: '/dashboard',
        element: <Probe name="dashboard" />,
        children: [
          { index: true, element: <Probe name="overview" /> },
          { path: '/dashboard/bookings/:id', element: <Probe name="booking" /> },
          { path: '/dashboard/bookings/new', element: <Probe name="new-booking" /> },
        ],
      },
      { path: '*', element: <Probe name="not-found" /> },
    ],
  },
];

describe('the route table', () => {
  const table = createRoutes(probeTable);
  const names = (path: string) => {
    const html = renderToString(
      <StaticRouter location={path}>
        <table.Routes />
      </StaticRouter>,
    );
    return [...html.matchAll(/data-probe="([^"]+)"/g)].map((m) => m[1]);
  };

  it.each([
    ['/', ['root', 'home']],
    ['/faq', ['root', 'faq']],
    ['/FAQ/', ['root', 'faq']],
    ['/faq?q=pay', ['root', 'faq']],
    ['/dashboard', ['root', 'dashboard', 'overview']],
    ['/dashboard/', ['root', 'dashboard', 'overview']],
    ['/dashboard/bookings/0b6f7e4c', ['root', 'dashboard', 'booking']],
    // A page of its own beats a pattern that would also take its path, whatever their order in the table.
    ['/dashboard/bookings/new', ['root', 'dashboard', 'new-booking']],
    ['/dashboard/nope/deeper', ['root', 'not-found']],
    ['/faq/extra', ['root', 'not-found']],
  ])('renders %s with its layouts, outermost first', (path, expected) => {
    expect(names(path)).toEqual(expected);
  });

  it("gives every layout and page the path's params, decoded, and the location as the address has it", () => {
    const html = renderToString(
      <StaticRouter location="/dashboard/bookings/a%20b%3Fc?tab=requester">
        <table.Routes />
      </StaticRouter>,
    );
    const seen = [...html.matchAll(/data-probe="[^"]+">([^<]+)/g)].map((m) =>
      JSON.parse(m[1]!.replace(/&quot;/g, '"')),
    );
    expect(seen).toHaveLength(3);
    for (const probe of seen) {
      expect(probe).toEqual({ params: { id: 'a b?c' }, at: '/dashboard/bookings/a%20b%3Fc?tab=requester' });
    }
  });

  it('works out each address once', () => {
    const first = table.matchesAt('/faq');
    expect(first?.at(-1)?.route.path).toBe('/faq');
    expect(table.matchesAt('/faq')).toBe(first);
    expect(table.matchesAt('/dashboard')?.at(-1)?.route.index).toBe(true);
  });
});

/** Where the router is, as text: address, state, navigation type, and the entry's key. */
function Where() {
  const location = useLocation();
  const type = useNavigationType();
  return (
    <output aria-label="Where">
      {JSON.stringify({ at: location.pathname + location.search + location.hash, state: location.state, type })}
    </output>
  );
}
const where = () => JSON.parse(screen.getByRole('status', { name: 'Where' }).textContent!) as Record<string, unknown>;

describe('navigations', () => {
  it("keeps the page on screen while the next one's code is loading, then shows it", async () => {
    let arrive!: () => void;
    const Slow = lazy(
      () =>
        new Promise<{ default: () => React.JSX.Element }>((resolve) => {
          arrive = () => resolve({ default: () => <h1>The slow page</h1> });
        }),
    );
    const pages = createRoutes([
      { path: '/', element: <Link to="/slow">To the slow page</Link> },
      { path: '/slow', Component: Slow },
    ]);
    render(
      <MemoryRouter>
        <Suspense fallback={<p>Loading</p>}>
          <pages.Routes />
        </Suspense>
      </MemoryRouter>,
    );
    await userEvent.setup().click(screen.getByRole('link', { name: 'To the slow page' }));
    expect(screen.getByRole('link', { name: 'To the slow page' })).toBeVisible();
    expect(screen.queryByText('Loading')).toBeNull();
    await act(async () => arrive());
    expect(await screen.findByRole('heading', { name: 'The slow page' })).toBeVisible();
  });

  it("writes each navigation to the window's history with its state and key; Back is a POP with the entry's state", async () => {
    window.history.replaceState(null, '', '/start');
    function Buttons() {
      const navigate = useNavigate();
      const { key } = useLocation();
      return (
        <>
          <p data-testid="key">{key}</p>
          <button type="button" onClick={() => navigate('/next?x=1#part', { state: { keepScroll: true } })}>
            Next
          </button>
        </>
      );
    }
    render(
      <BrowserRouter>
        <Where />
        <Buttons />
      </BrowserRouter>,
    );
    expect(where()).toEqual({ at: '/start', state: null, type: 'POP' });
    expect(screen.getByTestId('key')).toHaveTextContent('default');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Next' }));
    expect(where()).toEqual({ at: '/next?x=1#part', state: { keepScroll: true }, type: 'PUSH' });
    expect(window.location.pathname + window.location.search + window.location.hash).toBe('/next?x=1#part');
    const key = screen.getByTestId('key').textContent;
    expect(key).not.toBe('default');
    expect(window.history.state).toEqual({ usr: { keepScroll: true }, key });
    await act(async () => {
      window.history.back();
      await new Promise((resolve) => window.addEventListener('popstate', resolve, { once: true }));
    });
    expect(where()).toEqual({ at: '/start', state: null, type: 'POP' });
    expect(screen.getByTestId('key')).toHaveTextContent('default');
  });

  it("replaces the entry for a link to the address on screen, and goes back and forth through a memory's entries", async () => {
    function Page() {
      const navigate = useNavigate();
      return (
        <>
          <Link to="/a">A</Link>
          <Link to="/b">B</Link>
          <button type="button" onClick={() => navigate(-1)}>
            Back
          </button>
          <button type="button" onClick={() => navigate(1)}>
            Forward
          </button>
          <button type="button" onClick={() => navigate('/start?tab=2', { replace: true })}>
            Replace
          </button>
        </>
      );
    }
    render(
      <MemoryRouter initialEntries={['/start']}>
        <Where />
        <Page />
      </MemoryRouter>,
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('link', { name: 'A' }));
    await user.click(screen.getByRole('link', { name: 'A' }));
    expect(where()).toMatchObject({ at: '/a', type: 'REPLACE' });
    await user.click(screen.getByRole('link', { name: 'B' }));
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(where()).toMatchObject({ at: '/a', type: 'POP' });
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(where()).toMatchObject({ at: '/start', type: 'POP' });
    // A replaced entry keeps those ahead of it, as the browser's history does.
    await user.click(screen.getByRole('button', { name: 'Replace' }));
    expect(where()).toMatchObject({ at: '/start?tab=2', type: 'REPLACE' });
    await user.click(screen.getByRole('button', { name: 'Forward' }));
    expect(where()).toMatchObject({ at: '/a', type: 'POP' });
    await user.click(screen.getByRole('button', { name: 'Forward' }));
    expect(where()).toMatchObject({ at: '/b', type: 'POP' });
  });

  it('sets the query string and keeps the path; a NavLink marks the page on screen', async () => {
    function Filters() {
      const [params, setParams] = useSearchParams();
      return (
        <>
          <p>q is {params.get('q') ?? 'unset'}</p>
          <button
            type="button"
            onClick={() => setParams((p) => new URLSearchParams({ ...Object.fromEntries(p), q: 'a&b' }))}
          >
            Set
          </button>
          <button type="button" onClick={() => setParams({}, { replace: true })}>
            Clear
          </button>
          <NavLink to="/dashboard" end className={({ isActive }) => (isActive ? 'on' : 'off')}>
            Overview
          </NavLink>
          <NavLink to="/dashboard/rides">Rides</NavLink>
        </>
      );
    }
    render(
      <MemoryRouter initialEntries={['/dashboard/rides/1?page=2']}>
        <Where />
        <Filters />
      </MemoryRouter>,
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Set' }));
    expect(where()).toMatchObject({ at: '/dashboard/rides/1?page=2&q=a%26b', type: 'PUSH' });
    expect(screen.getByText('q is a&b')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Clear' }));
    expect(where()).toMatchObject({ at: '/dashboard/rides/1', type: 'REPLACE' });
    expect(screen.getByRole('link', { name: 'Rides' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'Overview' })).not.toHaveAttribute('aria-current');
    expect(screen.getByRole('link', { name: 'Overview' })).toHaveClass('off');
  });

  it('leaves a link that opens elsewhere to the browser', async () => {
    render(
      <MemoryRouter initialEntries={['/start']}>
        <Where />
        <Link to="/file.pdf" target="_blank">
          File
        </Link>
      </MemoryRouter>,
    );
    expect(screen.getByRole('link', { name: 'File' })).toHaveAttribute('href', '/file.pdf');
    screen.getByRole('link', { name: 'File' }).addEventListener('click', (e) => e.preventDefault());
    await userEvent.setup().click(screen.getByRole('link', { name: 'File' }));
    expect(where()).toMatchObject({ at: '/start' });
  });
});
