import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import type { Context, Hono } from 'hono';
import { isKnownClientPath, PRERENDERED_VARIANTS, variantFileName } from '../../shared/routes';
import type { AppEnv } from './types';

/** Every .html file the client build produced, keyed by the URL path it answers ('/' -> index.html). */
function loadHtmlPages(clientDir: string): Map<string, string> {
  const pages = new Map<string, string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) {
        if (name !== 'assets') walk(full);
      } else if (name === 'index.html') {
        const rel = relative(clientDir, dir).split('\\').join('/');
        pages.set(rel ? `/${rel}` : '/', readFileSync(full, 'utf8'));
      }
    }
  };
  walk(clientDir);
  return pages;
}

/** The pages' versions for a query value the build made (PRERENDERED_VARIANTS), with the URL of their file. */
function loadVariants(clientDir: string) {
  return PRERENDERED_VARIANTS.flatMap((v) => {
    const fileUrl = `${v.path}/${variantFileName(v)}`;
    const file = join(clientDir, fileUrl);
    return existsSync(file) ? [{ ...v, fileUrl, html: readFileSync(file, 'utf8') }] : [];
  });
}

/**
 * Files the browser must check with the server on every use: the service worker (a cached copy would hold back
 * every update, docs/decisions/022-service-worker.md) and the web app manifest.
 */
const REVALIDATED_FILES = ['/sw.js', '/manifest.webmanifest'];

/**
 * Serves the built client: hashed assets (precompressed .br/.gz when the browser accepts them) cached for a year,
 * and HTML (a prerendered page where the build made one, else the app shell) never cached, with a real 404 status
 * for paths the app does not know.
 */
export function mountClient(
  app: Hono<AppEnv>,
  clientDir: string,
  /** Applied to a page each time it is sent (e.g. to write runtime settings into prerendered HTML). */
  renderHtml: (html: string) => string = (html) => html,
): void {
  if (!existsSync(join(clientDir, 'index.html'))) throw new Error(`Client build missing in ${clientDir}`);
  const pages = loadHtmlPages(clientDir);
  const variants = loadVariants(clientDir);
  // The empty app shell, for pages rendered in the browser only; the build keeps it as shell.html once '/' is
  // prerendered into index.html.
  const shellFile = join(clientDir, 'shell.html');
  const shell = existsSync(shellFile) ? readFileSync(shellFile, 'utf8') : (pages.get('/') ?? '');
  const sendHtml = (c: Context<AppEnv>, html: string, status: 200 | 404) => {
    c.header('Cache-Control', 'no-cache');
    return c.html(renderHtml(html), status);
  };

  app.use(
    '/assets/*',
    async (c, next) => {
      await next();
      if (c.res.status === 200) c.header('Cache-Control', 'public, max-age=31536000, immutable');
    },
    serveStatic({ root: clientDir, precompressed: true }),
  );
  for (const file of REVALIDATED_FILES) {
    app.get(file, async (c, next) => {
      await next();
      if (c.res.status === 200) c.header('Cache-Control', 'no-cache');
    });
  }
  app.get('*', async (c, next) => {
    const path = c.req.path;
    if (path.startsWith('/api/') || path === '/api') return next();
    // The build's HTML files by name (the service worker precaches the shell as /shell.html) are filled in like
    // their pages, never sent as raw templates with their placeholders.
    if (path === '/shell.html') return sendHtml(c, shell, 200);
    const byName = variants.find((v) => v.fileUrl === path);
    if (byName) return sendHtml(c, byName.html, 200);
    const clean = path.length > 1 ? path.replace(/\/index\.html$/, '/').replace(/\/+$/, '') || '/' : path;
    // /auth?tab=signup: the page prerendered with that tab open, so it hydrates as it was sent.
    const variant = variants.find((v) => v.path === clean && c.req.query(v.name) === v.value);
    const page = variant?.html ?? pages.get(clean);
    if (page === undefined && /\.[a-z0-9]+$/i.test(path)) return next();
    return sendHtml(c, page ?? shell, page !== undefined || isKnownClientPath(clean) ? 200 : 404);
  });
  // A prerendered form sent before its script arrived (a slow line) posts to its page: nothing is read, and the
  // page is sent again by its address. The forms say method="post" so that no password goes into a URL.
  app.post('*', async (c, next) => {
    const path = c.req.path;
    if (path.startsWith('/api/') || path === '/api' || !pages.has(path)) return next();
    const url = new URL(c.req.url);
    return c.redirect(url.pathname + url.search, 303);
  });
  app.use('*', serveStatic({ root: clientDir, precompressed: true }));
}
