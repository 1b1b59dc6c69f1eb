import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { brotliCompress, constants } from 'node:zlib';
import { serveStatic } from '@hono/node-server/serve-static';
import type { Context, Hono } from 'hono';
import { isKnownClientPath, PRERENDERED_VARIANTS, variantFileName } from '../../shared/routes';
import { acceptsEncoding } from './compress';
import { inlineScriptSources } from './inline-scripts';
import type { AppEnv } from './types';

/**
 * The pages' brotli, at its best quality: about 15% smaller than the gzip compressResponses() makes on the spot (for
 * '/', 11.7 KB instead of 13.8; on a 400 kbit/s line that is 40 ms sooner). Too slow to make per request (tens of ms
 * for a page), so each page's is made once on libuv's threads, when the server starts and again when a filled-in page
 * changes (with the day it shows), and kept while the page stays the same; until it is ready the page goes out as
 * before.
 */
function pageBrotli() {
  const made = new Map<string, { html: string; br?: Uint8Array<ArrayBuffer> }>();
  return (template: string, html: string): Uint8Array<ArrayBuffer> | undefined => {
    const known = made.get(template);
    if (known?.html === html) return known.br;
    const entry: { html: string; br?: Uint8Array<ArrayBuffer> } = { html };
    made.set(template, entry);
    const bytes = Buffer.from(html);
    const params = { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length };
    brotliCompress(bytes, { params }, (err, br) => {
      if (!err) entry.br = new Uint8Array(br);
    });
    return undefined;
  };
}

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

/** Reads the client build: its pages, their versions, the shell, and the CSP sources of their inline scripts. */
export function loadClient(clientDir: string) {
  if (!existsSync(join(clientDir, 'index.html'))) throw new Error(`Client build missing in ${clientDir}`);
  const pages = loadHtmlPages(clientDir);
  const variants = loadVariants(clientDir);
  // The empty app shell, for pages rendered in the browser only; the build keeps it as shell.html once '/' is
  // prerendered into index.html.
  const shellFile = join(clientDir, 'shell.html');
  const shell = existsSync(shellFile) ? readFileSync(shellFile, 'utf8') : (pages.get('/') ?? '');
  // Every HTML the server sends, each once.
  const templates = [...new Set([shell, ...pages.values(), ...variants.map((v) => v.html)])];
  return { dir: clientDir, pages, variants, shell, templates, inlineScripts: inlineScriptSources(templates) };
}

/** The built client, read once at start (loadClient): its pages, and the CSP sources of their inline scripts. */
export type ClientBuild = ReturnType<typeof loadClient>;

/**
 * Serves the built client: hashed assets (precompressed .br/.gz when the browser accepts them) cached for a year,
 * and HTML (a prerendered page where the build made one, else the app shell) never cached, with a real 404 status
 * for paths the app does not know.
 */
export function mountClient(
  app: Hono<AppEnv>,
  { dir: clientDir, pages, variants, shell, templates }: ClientBuild,
  /** Applied to a page each time it is sent (e.g. to write runtime settings into prerendered HTML). */
  renderHtml: (html: string) => string = (html) => html,
): void {
  const brotli = pageBrotli();
  // Made now, in the background, for every page: a visitor's first page after a start is then brotli too.
  for (const template of templates) {
    brotli(template, renderHtml(template));
  }
  const sendHtml = (c: Context<AppEnv>, template: string, status: 200 | 404) => {
    c.header('Cache-Control', 'no-cache');
    c.header('Vary', 'Accept-Encoding');
    const html = renderHtml(template);
    const br = acceptsEncoding(c.req.header('Accept-Encoding'), 'br') ? brotli(template, html) : undefined;
    if (!br) return c.html(html, status);
    c.header('Content-Type', 'text/html; charset=UTF-8');
    c.header('Content-Encoding', 'br');
    return c.body(br, status);
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
