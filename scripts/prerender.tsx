/**
 * Renders the public pages to HTML at build time (see docs/decisions/004-prerender-public-pages.md). Loaded by
 * the `ruralroute-prerender` plugin in vite.config.ts through Vite's SSR loader, so the app's aliases and
 * TypeScript work here exactly as in the browser build.
 */
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from '@/lib/router';
import { AppRoutes, matchesAt, resolveLazyRoutes } from '@/app/router';
import { collectPageMeta } from '@/components/page-meta';
import type { LazyPage } from '@/app/lazy-page';
import type { EarlyRequest } from '@/lib/early-responses';
import { PAGE_PATHS, PRERENDERED_VARIANTS, variantFileName } from '../src/shared/routes';

interface PrerenderedPage {
  path: string;
  /** Source files of the page's lazy route modules: their chunks are preloaded by the HTML. */
  modules: string[];
  /** Other versions of the page, for one query value each (PRERENDERED_VARIANTS), written beside its index.html. */
  variants?: { url: string; file: string }[];
  /**
   * An app page's frame rather than a public page: its scripts load at once (not after the first paint), the app
   * renders over it instead of hydrating it, and these API requests start from the HTML (src/client/early-requests.ts).
   */
  appShell?: { requests: EarlyRequest[] };
}

const route = (name: string) => `src/client/app/routes/${name}.tsx`;
const queryLayout = 'src/client/app/layouts/query-layout.tsx';

/**
 * Every public page that has the same content for everyone until its script runs. /auth is prerendered signed out
 * (it redirects a signed-in person to the dashboard once hydrated), with a second version for `?tab=signup`; and
 * /dashboard's frame (docs/weak-signal.md, 'Fast on a slow line').
 */
const PAGES: PrerenderedPage[] = [
  { path: PAGE_PATHS.home, modules: [route('home')] },
  { path: PAGE_PATHS.howItWorks, modules: [route('how-it-works')] },
  { path: PAGE_PATHS.pricing, modules: [route('pricing')] },
  { path: PAGE_PATHS.about, modules: [route('about')] },
  { path: PAGE_PATHS.faq, modules: [route('faq')] },
  { path: PAGE_PATHS.contact, modules: [queryLayout, route('contact')] },
  { path: PAGE_PATHS.auth, modules: [route('auth')] },
  { path: PAGE_PATHS.privacy, modules: [route('privacy')] },
  { path: PAGE_PATHS.terms, modules: [route('terms')] },
  // The dashboard's frame while the session is looked up: the same for everyone (nothing of a person is in it). A
  // signed-out visitor is sent on to /auth once the app has the session's answer.
  {
    path: PAGE_PATHS.dashboard,
    modules: [queryLayout, 'src/client/app/layouts/dashboard-layout.tsx', route('dashboard-home')],
    appShell: {
      requests: [
        { path: '/api/auth/session' },
        { path: '/api/dashboard' },
        { path: '/api/notifications/unread' },
        // The sidebar's badge: the sidebar is shown from 768px (a phone opens it from the menu).
        { path: '/api/messages/unread', media: '(min-width: 768px)' },
      ],
    },
  },
];

/** Whether a page at `path` waits for tailwind-merge before it renders (lazyPage's `classMerger`). */
const waitsForClassMerger = (path: string) =>
  (matchesAt(path) ?? []).some(({ route }) => (route.Component as Partial<LazyPage> | undefined)?.classMerger);

export const PRERENDERED_PAGES: PrerenderedPage[] = PAGES.map((page) => ({
  ...page,
  // Its chunk comes with the page's own, not after them.
  modules: waitsForClassMerger(page.path) ? [...page.modules, 'src/client/lib/class-merger.ts'] : page.modules,
  variants: PRERENDERED_VARIANTS.filter((v) => v.path === page.path).map((v) => ({
    url: `${page.path}?${new URLSearchParams({ [v.name]: v.value })}`,
    file: variantFileName(v),
  })),
}));

/** The page's markup (for inside #root) and the <title>/<meta> tags its PageMeta set, for the document's head. */
export async function renderPage(path: string): Promise<{ body: string; head: string }> {
  const { pathname } = new URL(path, 'http://localhost');
  const matches = matchesAt(pathname) ?? [];
  if (matches.length === 0 || matches.at(-1)!.route.path === '*') throw new Error(`${path}: no page of its own`);
  // Every page and layout on the way is loaded first: the render is synchronous (no Suspense on the server).
  await resolveLazyRoutes(pathname);
  const {
    result: body,
    title,
    head,
  } = collectPageMeta(() =>
    renderToString(
      <StrictMode>
        <StaticRouter location={path}>
          <AppRoutes />
        </StaticRouter>
      </StrictMode>,
    ),
  );
  if (title === undefined) throw new Error(`${path}: the page renders no <title>`);
  if (!head.includes('name="description"')) throw new Error(`${path}: no meta description`);
  return { body, head };
}
