import {
  createContext,
  startTransition,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ComponentProps,
  type ComponentType,
  type ReactNode,
} from 'react';
// wouter's own pattern parser: case-insensitive, an optional trailing slash.
import { parse as parsePattern } from 'regexparam';
import { Link as WouterLink, matchRoute, Redirect, Router as WouterRouter } from 'wouter';

/**
 * The app's routing (docs/decisions/043-wouter-router.md): wouter's Router, Link, Redirect and path matcher, under a
 * location of the app's own, so that the pages keep what React Router gave them:
 * - a navigation is a transition: the page on screen stays until the next page's code is in (lazyPage suspends);
 * - each history entry has a key (ScrollRestoration keeps its place by it, RouteErrorBoundary resets on it) and the
 *   state a navigation gave it (KEEP_SCROLL);
 * - the navigation's type (POP for Back and Forward), nested layouts with `Outlet`, `NavLink`, `useSearchParams`.
 * BrowserRouter follows the window's history; MemoryRouter (tests) and StaticRouter (the prerender) do not.
 */

/** Where the app is: the address's parts, the state its navigation gave, and its history entry's key. */
export interface Location {
  pathname: string;
  /** '' or '?...', as `window.location.search`. */
  search: string;
  hash: string;
  state: unknown;
  /** 'default' for the entry the app was opened at, until a navigation gives one. */
  key: string;
}

export type NavigationType = 'POP' | 'PUSH' | 'REPLACE';

export interface NavigateOptions {
  replace?: boolean;
  state?: unknown;
}

/** To an address, or `delta` entries back (negative) or forward in the history, as Back and Forward do. */
type NavigateFunction = (to: string | number, options?: NavigateOptions) => void;

interface RouterState {
  location: Location;
  navigationType: NavigationType;
  navigate: NavigateFunction;
}

/** What the app keeps in `history.state`: React Router's shape, so entries made before this router keep their key. */
interface HistoryEntryState {
  usr?: unknown;
  key?: string;
}

const ORIGIN = 'http://localhost';
const newKey = () => Math.random().toString(36).slice(2, 10);
const hrefOf = (l: Location) => `${l.pathname}${l.search}${l.hash}`;

/** The location of `to` ('/a?b#c', or relative to `from` as a link's address is), with its state and a new key. */
function locationOf(to: string, from: string, state: unknown, key = newKey()): Location {
  const url = new URL(to, `${ORIGIN}${from}`);
  return { pathname: url.pathname, search: url.search, hash: url.hash, state, key };
}

function windowLocation(): Location {
  const entry = (window.history.state ?? null) as HistoryEntryState | null;
  const { pathname, search, hash } = window.location;
  return { pathname, search, hash, state: entry?.usr ?? null, key: entry?.key ?? 'default' };
}

/** Where the router's entries are written: the window's history, a memory of its own (tests), or nowhere. */
type HistoryKind = 'window' | 'memory' | 'static';

const RouterStateContext = createContext<RouterState | null>(null);

function useRouterState(): RouterState {
  const state = useContext(RouterStateContext);
  if (!state) throw new Error('A page used the router outside BrowserRouter, MemoryRouter or StaticRouter');
  return state;
}

// wouter reads the location through these hooks; its Link and Redirect navigate through them.
const useWouterLocation = (): [string, (to: string, options?: NavigateOptions) => void] => {
  const { location, navigate } = useRouterState();
  return [location.pathname, navigate];
};
const useWouterSearch = () => useRouterState().location.search;

/**
 * Holds the location as React state, changed in a transition at each navigation. (wouter's own location hook is an
 * external store, whose changes React renders at once: a page whose code is still loading would blank the screen.)
 * A navigation writes its history entry at once; the screen follows when the next page is ready.
 */
function RouterRoot({ initial, kind, children }: { initial: () => Location; kind: HistoryKind; children: ReactNode }) {
  const [current, setCurrent] = useState(() => ({ location: initial(), navigationType: 'POP' as NavigationType }));
  // The latest entry, which the screen may not show yet: the next navigation is relative to it. A memory's entries.
  const latest = useRef(current.location);
  const memory = useRef({ entries: [current.location], index: 0 });
  const show = useCallback((location: Location, navigationType: NavigationType) => {
    latest.current = location;
    startTransition(() => setCurrent({ location, navigationType }));
  }, []);
  const navigate = useCallback<NavigateFunction>(
    (to, options = {}) => {
      if (kind === 'static') throw new Error('StaticRouter cannot navigate');
      if (typeof to === 'number') {
        if (kind === 'window') return window.history.go(to);
        const m = memory.current;
        m.index = Math.min(Math.max(m.index + to, 0), m.entries.length - 1);
        return show(m.entries[m.index]!, 'POP');
      }
      const next = locationOf(to, hrefOf(latest.current), options.state ?? null);
      // As a link does: to the address already on screen replaces its entry instead of adding one.
      const replace = options.replace ?? hrefOf(next) === hrefOf(latest.current);
      if (kind === 'window') {
        const entry: HistoryEntryState = { usr: next.state, key: next.key };
        if (replace) window.history.replaceState(entry, '', hrefOf(next));
        else window.history.pushState(entry, '', hrefOf(next));
      } else {
        // As the browser's history: a new entry drops those ahead of the current one; a replaced one keeps them.
        const m = memory.current;
        if (replace) m.entries[m.index] = next;
        else m.entries.splice((m.index += 1), m.entries.length, next);
      }
      show(next, replace ? 'REPLACE' : 'PUSH');
    },
    [kind, show],
  );
  useEffect(() => {
    if (kind !== 'window') return;
    const onPop = () => show(windowLocation(), 'POP');
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, [kind, show]);
  const value = useMemo(() => ({ ...current, navigate }), [current, navigate]);
  return (
    <RouterStateContext.Provider value={value}>
      <WouterRouter hook={useWouterLocation} searchHook={useWouterSearch}>
        {children}
      </WouterRouter>
    </RouterStateContext.Provider>
  );
}

/** The app in the browser: the window's address, its history entries, Back and Forward. */
export function BrowserRouter({ children }: { children: ReactNode }) {
  return (
    <RouterRoot initial={windowLocation} kind="window">
      {children}
    </RouterRoot>
  );
}

/** A history of its own, starting at `initialEntries[0]` (component tests). */
export function MemoryRouter({ initialEntries = ['/'], children }: { initialEntries?: string[]; children: ReactNode }) {
  return (
    <RouterRoot initial={() => locationOf(initialEntries[0] ?? '/', '/', null, 'default')} kind="memory">
      {children}
    </RouterRoot>
  );
}

/** One fixed address (the prerender). */
export function StaticRouter({ location, children }: { location: string; children: ReactNode }) {
  return (
    <RouterRoot initial={() => locationOf(location, '/', null, 'default')} kind="static">
      {children}
    </RouterRoot>
  );
}

export const useLocation = (): Location => useRouterState().location;
export const useNavigationType = (): NavigationType => useRouterState().navigationType;
export const useNavigate = (): NavigateFunction => useRouterState().navigate;

type SearchParamsInit = URLSearchParams | Record<string, string> | ((current: URLSearchParams) => URLSearchParams);

/** The query string's values, and a setter that navigates to the same path with new ones (no hash, as a form does). */
export function useSearchParams(): [URLSearchParams, (next: SearchParamsInit, options?: NavigateOptions) => void] {
  const { location, navigate } = useRouterState();
  const params = useMemo(() => new URLSearchParams(location.search), [location.search]);
  const set = useCallback(
    (next: SearchParamsInit, options?: NavigateOptions) => {
      const query = new URLSearchParams(typeof next === 'function' ? next(params) : next).toString();
      navigate(`${location.pathname}${query ? `?${query}` : ''}`, options);
    },
    [navigate, location.pathname, params],
  );
  return [params, set];
}

type LinkProps = Omit<ComponentProps<'a'>, 'href'> & { to: string; replace?: boolean; state?: unknown };

/**
 * An in-app link: a real `<a href>` (it works before the script has run), navigating in place; one that opens
 * elsewhere (`target`, another site) is left to the browser.
 */
export function Link({ to, ...rest }: LinkProps) {
  if ((rest.target && rest.target !== '_self') || rest.download !== undefined || /^[a-z][a-z\d+.-]*:/i.test(to)) {
    const { replace: _replace, state: _state, ...anchor } = rest;
    return <a href={to} {...anchor} />;
  }
  return <WouterLink to={to} {...rest} />;
}

/** A link that knows it leads to the page on screen (`aria-current="page"`); `end`: only that exact path. */
export function NavLink({
  to,
  end = false,
  className,
  ...rest
}: Omit<LinkProps, 'className'> & {
  end?: boolean;
  className?: string | ((state: { isActive: boolean }) => string);
}) {
  const { pathname } = useLocation();
  const here = pathname.toLowerCase().replace(/(.)\/$/, '$1');
  const path = to.split(/[?#]/)[0]!.toLowerCase();
  const isActive = here === path || (!end && here.startsWith(path.endsWith('/') ? path : `${path}/`));
  return (
    <Link
      to={to}
      aria-current={isActive ? 'page' : undefined}
      className={typeof className === 'function' ? className({ isActive }) : className}
      {...rest}
    />
  );
}

/** Goes to `to` as soon as it renders (replacing the entry with `replace`). */
export function Navigate({ to, replace, state }: { to: string } & NavigateOptions) {
  return <Redirect to={to} replace={replace} state={state} />;
}

// ---------------------------------------------------------------------------------------------------------------
// The route table: nested layouts, each rendering its child page with <Outlet />.

export interface RouteNode {
  /** A whole path ('/dashboard/rides'; a child's path starts with its parent's), '*' for any other. */
  path?: string;
  /** The parent's own path. */
  index?: boolean;
  Component?: ComponentType | null;
  /** Instead of a Component (tests). */
  element?: ReactNode;
  children?: RouteNode[];
}

export type Params = Record<string, string | undefined>;

export interface RouteMatch {
  route: RouteNode;
  params: Params;
}

interface Leaf {
  chain: RouteNode[];
  pattern: string;
}

/** Every page of the table with the layouts above it; the most specific first (static, then params, then '*'). */
function leavesOf(table: RouteNode[]): Leaf[] {
  const leaves: Leaf[] = [];
  const walk = (nodes: RouteNode[], chain: RouteNode[], parentPath: string | undefined) => {
    for (const node of nodes) {
      const path = node.index ? (parentPath ?? '/') : (node.path ?? parentPath);
      if (node.children) walk(node.children, [...chain, node], path);
      else if (path !== undefined) leaves.push({ chain: [...chain, node], pattern: path });
    }
  };
  walk(table, [], undefined);
  const rank = (p: string) => (p.includes('*') ? 2 : p.includes(':') ? 1 : 0);
  // Array sort is stable: within a rank, the table's order stands.
  return leaves.sort((a, b) => rank(a.pattern) - rank(b.pattern));
}

const decode = (value: string) => {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
};

/** The pages and layouts of `leaves` at `pathname`, outermost first, with the path's params; null for none. */
function matchLeaves(leaves: Leaf[], pathname: string): RouteMatch[] | null {
  for (const { chain, pattern } of leaves) {
    const [matched, found] = matchRoute(parsePattern, pattern, pathname);
    if (!matched) continue;
    const params: Params = {};
    for (const [name, value] of Object.entries(found ?? {}))
      if (!/^\d+$/.test(name)) params[name] = value && decode(value);
    return chain.map((route) => ({ route, params }));
  }
  return null;
}

const OutletContext = createContext<ReactNode>(null);
const ParamsContext = createContext<Params>({});

/** Where a layout shows the page inside it. */
export const Outlet = () => useContext(OutletContext);
export const useParams = <T extends Params = Params>(): T => useContext(ParamsContext) as T;

/** The matched pages and layouts, each layout given the next as its Outlet. */
export function renderMatches(matches: RouteMatch[] | null): ReactNode {
  if (!matches) return null;
  const page = matches.reduceRight<ReactNode>(
    (outlet, { route: { Component, element } }) => (
      <OutletContext.Provider value={outlet}>{Component ? <Component /> : (element ?? outlet)}</OutletContext.Provider>
    ),
    null,
  );
  return <ParamsContext.Provider value={matches[0]?.params ?? {}}>{page}</ParamsContext.Provider>;
}

/**
 * A route table: `matchesAt(pathname)` (what the app loads before its first render, and the prerender checks), and
 * `Routes`, which renders the table at the current location. Each path's matches are worked out once (a long
 * session's many ids: at most 200 kept), not again at each render or change of the query string.
 */
export function createRoutes(table: RouteNode[]) {
  let leaves: Leaf[] | undefined;
  const byPath = new Map<string, RouteMatch[] | null>();
  function matchesAt(pathname: string): RouteMatch[] | null {
    let matches = byPath.get(pathname);
    if (matches === undefined) {
      matches = matchLeaves((leaves ??= leavesOf(table)), pathname);
      if (byPath.size >= 200) byPath.clear();
      byPath.set(pathname, matches);
    }
    return matches;
  }
  function Routes() {
    return renderMatches(matchesAt(useLocation().pathname));
  }
  return { matchesAt, Routes };
}
