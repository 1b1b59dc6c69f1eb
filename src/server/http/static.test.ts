import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localToday, formatLongDate } from '../../shared/dates';
import { SITE_CONFIG_TOKENS } from '../../shared/site-config';
import { createApp } from '../app';
import type { Database } from '../db/client';
import { createTestDatabase } from '../test/database';
import { testEnv } from '../test/harness';

const T = SITE_CONFIG_TOKENS;
const BOOT = 'document.documentElement.dataset.booted = "yes";';
const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
const page = (body: string) =>
  `<!doctype html><html><head><script id="rr-site-config" type="application/json">${JSON.stringify(T)}</script></head><body><div id="root">${body}</div></body></html>`;

let dir: string;
let database: Database;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  // A client build in miniature: '/' and '/privacy' prerendered, plus the shell for the other routes.
  dir = mkdtempSync(join(tmpdir(), 'rr-static-'));
  // '/' runs an inline script, as a prerendered page's boot code does (vite.config.ts, bootAfterPaint).
  writeFileSync(
    join(dir, 'index.html'),
    page('<h1>Home</h1>').replace('</head>', `<script type="module">${BOOT}</script></head>`),
  );
  writeFileSync(join(dir, 'shell.html'), page('<!--app-html-->'));
  mkdirSync(join(dir, 'privacy'));
  writeFileSync(
    join(dir, 'privacy', 'index.html'),
    page(`<p>Last updated: ${T.todayLong}</p><a href="mailto:${T.supportEmail}">${T.supportEmail}</a>`),
  );
  mkdirSync(join(dir, 'contact'));
  writeFileSync(join(dir, 'contact', 'index.html'), page(`<a href="${T.supportPhoneHref}">${T.supportPhone}</a>`));
  mkdirSync(join(dir, 'auth'));
  writeFileSync(join(dir, 'auth', 'index.html'), page(`<h1>Sign In</h1><a href="mailto:${T.supportEmail}">x</a>`));
  writeFileSync(join(dir, 'auth', 'index.tab-signup.html'), page(`<h1>Sign Up</h1><p>${T.supportEmail}</p>`));
  writeFileSync(join(dir, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  writeFileSync(join(dir, 'manifest.webmanifest'), JSON.stringify({ name: 'RuralRoute', start_url: '/dashboard' }));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'assets', 'index-abc123.js'), 'export {};');
  database = await createTestDatabase();
  const env = testEnv({ SUPPORT_EMAIL: 'help@valley.example', SUPPORT_PHONE: '+1 (555) 010-2000' });
  app = createApp({ db: database.db, env, clientDir: dir });
});
afterAll(async () => {
  await database.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('serving the public pages', () => {
  it("allows the pages' inline scripts by their hash, and no other inline script", async () => {
    for (const path of ['/', '/privacy', '/api/health']) {
      const csp = (await app.request(path)).headers.get('content-security-policy') ?? '';
      const scripts = csp
        .split(';')
        .find((d) => d.trim().startsWith('script-src'))
        ?.trim();
      // The JSON data blocks of every page run nothing and get no source.
      expect(scripts).toBe(`script-src 'self' ${sha256(BOOT)}`);
    }
  });

  it('writes the configured support e-mail and phone and the day of the request into prerendered pages', async () => {
    const privacy = await (await app.request('/privacy')).text();
    expect(privacy).toContain(`Last updated: ${formatLongDate(localToday())}`);
    expect(privacy).toContain('<a href="mailto:help@valley.example">help@valley.example</a>');
    expect(privacy).toContain(`"today":"${localToday()}"`);
    expect(privacy).not.toContain('__RR_');
    const contact = await (await app.request('/contact/')).text();
    expect(contact).toContain('<a href="tel:+15550102000">+1 (555) 010-2000</a>');
  });

  it('sends the prerendered page for its path, the shell for client-only routes, 404 for unknown ones', async () => {
    const home = await app.request('/');
    expect(home.status).toBe(200);
    expect(await home.text()).toContain('<h1>Home</h1>');
    const dashboard = await app.request('/dashboard');
    expect(dashboard.status).toBe(200);
    const dashboardHtml = await dashboard.text();
    expect(dashboardHtml).toContain('<!--app-html-->');
    expect(dashboardHtml).toContain('"supportEmail":"help@valley.example"');
    const missing = await app.request('/no/such/page');
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('<!--app-html-->');
  });
});

describe('pages in brotli', () => {
  it('sends a page in brotli to a browser that takes it, once made, and as it is to one that does not', async () => {
    const plain = await (await app.request('/privacy')).text();
    const br = { 'Accept-Encoding': 'gzip, deflate, br' };
    // The first such request starts the page's brotli off the request's path; it is sent as soon as it is ready.
    await expect
      .poll(async () => (await app.request('/privacy', { headers: br })).headers.get('Content-Encoding'))
      .toBe('br');
    const res = await app.request('/privacy', { headers: br });
    expect(res.status).toBe(200);
    expect(res.headers.get('Vary')).toBe('Accept-Encoding');
    expect(res.headers.get('Cache-Control')).toBe('no-cache');
    expect(res.headers.get('Content-Type')).toBe('text/html; charset=UTF-8');
    expect(brotliDecompressSync(Buffer.from(await res.arrayBuffer())).toString()).toBe(plain);
    expect(plain).toContain('help@valley.example');
    for (const header of ['gzip, deflate', 'br;q=0, gzip', 'identity']) {
      const other = await app.request('/privacy', { headers: { 'Accept-Encoding': header } });
      expect(other.headers.get('Content-Encoding')).not.toBe('br');
      expect(await other.text()).toBe(plain);
    }
    // A page unknown to the app (the shell, with its 404) is sent the same way.
    await expect
      .poll(async () => (await app.request('/no/such/page', { headers: br })).headers.get('Content-Encoding'))
      .toBe('br');
    expect((await app.request('/no/such/page', { headers: br })).status).toBe(404);
  });
});

describe('/auth, prerendered in two versions', () => {
  it('sends the sign-up version for ?tab=signup and the sign-in one for any other address', async () => {
    const signIn = await (await app.request('/auth')).text();
    expect(signIn).toContain('<h1>Sign In</h1>');
    expect(signIn).toContain('mailto:help@valley.example');
    for (const url of ['/auth?tab=signup', '/auth/?tab=signup&utm_source=mail']) {
      const res = await app.request(url);
      expect(res.status).toBe(200);
      expect(res.headers.get('Cache-Control')).toBe('no-cache');
      const html = await res.text();
      expect(html).toContain('<h1>Sign Up</h1>');
      expect(html).toContain('<p>help@valley.example</p>');
    }
    for (const url of ['/auth?tab=signin', '/auth?tab=SIGNUP', '/auth?utm_source=mail']) {
      expect(await (await app.request(url)).text()).toContain('<h1>Sign In</h1>');
    }
    // By its file name (never the raw template) like the other HTML files.
    const byName = await (await app.request('/auth/index.tab-signup.html')).text();
    expect(byName).toContain('<p>help@valley.example</p>');
    expect(byName).not.toContain('__RR_');
  });

  it('answers a form posted before its script arrived by sending the page again, reading nothing', async () => {
    const form = new URLSearchParams({ email: 'a@b.example', password: 'secret-password' });
    for (const url of ['/auth', '/auth?tab=signup']) {
      const res = await app.request(url, { method: 'POST', body: form });
      expect(res.status).toBe(303);
      expect(res.headers.get('Location')).toBe(url);
    }
    // Not for other addresses, and never for the API.
    expect((await app.request('/no/such/page', { method: 'POST', body: form })).status).toBe(404);
    expect((await app.request('/api/nothing', { method: 'POST', body: form })).status).not.toBe(303);
  });
});

describe('serving the installable app', () => {
  it('sends the service worker and the manifest to be checked on every use, with their types', async () => {
    const worker = await app.request('/sw.js');
    expect(worker.status).toBe(200);
    expect(worker.headers.get('Cache-Control')).toBe('no-cache');
    expect(worker.headers.get('Content-Type')).toMatch(/^text\/javascript/);
    const manifest = await app.request('/manifest.webmanifest');
    expect(manifest.status).toBe(200);
    expect(manifest.headers.get('Cache-Control')).toBe('no-cache');
    expect(manifest.headers.get('Content-Type')).toMatch(/^application\/manifest\+json/);
    expect(await manifest.json()).toMatchObject({ start_url: '/dashboard' });
    // Hashed assets stay cached for a year.
    const asset = await app.request('/assets/index-abc123.js');
    expect(asset.headers.get('Cache-Control')).toBe('public, max-age=31536000, immutable');
  });

  it('fills in the HTML files the service worker precaches by name, as it does their pages', async () => {
    const shell = await app.request('/shell.html');
    expect(shell.status).toBe(200);
    expect(shell.headers.get('Cache-Control')).toBe('no-cache');
    const shellHtml = await shell.text();
    expect(shellHtml).toContain('<!--app-html-->');
    expect(shellHtml).toContain('"supportEmail":"help@valley.example"');
    const privacy = await (await app.request('/privacy/index.html')).text();
    expect(privacy).toContain('<a href="mailto:help@valley.example">help@valley.example</a>');
    expect(privacy).not.toContain('__RR_');
    expect(await (await app.request('/index.html')).text()).toContain('<h1>Home</h1>');
  });
});
