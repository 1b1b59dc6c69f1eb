import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { createServer, defineConfig, type Manifest, type Plugin, type ResolvedConfig } from 'vite';
import { VitePWA, type ManifestOptions, type VitePWAOptions } from 'vite-plugin-pwa';

/** Writes .br and .gz beside every text asset so the server sends them without compressing per request. */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'ruralroute-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    // Last, after the prerendered pages and the service worker are written.
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
        const walk = (dir: string): string[] =>
          readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? walk(join(dir, n)) : [join(dir, n)]));
        for (const file of walk(outDir)) {
          if (!/\.(js|css|svg|json|txt|webmanifest)$/.test(file)) continue;
          const data = readFileSync(file);
          if (data.length < 1024) continue;
          writeFileSync(`${file}.br`, brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
          writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
        }
      },
    },
  };
}

/**
 * Fails the build when two chunks import each other, directly or round about: the one evaluated first then reads the
 * other's exports before they exist (a component undefined at render: React error #130, depending on which page
 * loaded first). Seen once with hand-made chunk groups; this keeps any chunking from bringing it back.
 */
function noChunkCycles(): Plugin {
  return {
    name: 'ruralroute-no-chunk-cycles',
    apply: 'build',
    generateBundle(_options, bundle) {
      const imports = new Map<string, string[]>();
      for (const [file, out] of Object.entries(bundle)) if (out.type === 'chunk') imports.set(file, out.imports);
      const state = new Map<string, 'visiting' | 'done'>();
      const visit = (file: string, path: string[]) => {
        if (state.get(file) === 'done') return;
        if (state.get(file) === 'visiting') {
          this.error(`chunks import each other: ${[...path.slice(path.indexOf(file)), file].join(' -> ')}`);
        }
        state.set(file, 'visiting');
        for (const next of imports.get(file) ?? []) visit(next, [...path, file]);
        state.set(file, 'done');
      };
      for (const file of imports.keys()) visit(file, []);
    },
  };
}

/**
 * The icons of the dashboard's first screen that other pages show too (lucide-react's file names): a chunk of their
 * own, so that screen does not download every page's shared icons (about 2.3 KB of 3.2 on the slow line's first
 * visit, issue 34). firstScreenIcons() fails the build when the first screen needs a shared icon not listed here.
 */
const FIRST_SCREEN_ICONS = [
  'bell',
  'car',
  'circle-check',
  'package',
  'package-check',
  'search',
  'triangle-exclamation-point',
  'truck',
];

/** The first screen's chunks (the groups below) import no other icons than FIRST_SCREEN_ICONS' chunk. */
function firstScreenIcons(): Plugin {
  return {
    name: 'ruralroute-first-screen-icons',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((out) => out.type === 'chunk');
      const icons = chunks.find((c) => c.name === 'icons')?.fileName;
      for (const chunk of chunks) {
        if (!['dashboard', 'query', 'ui'].includes(chunk.name) || !icons || !chunk.imports.includes(icons)) continue;
        this.error(
          `the ${chunk.name} chunk (the dashboard's first screen) imports the shared icons chunk: add the shared ` +
            'icon it shows to FIRST_SCREEN_ICONS in vite.config.ts',
        );
      }
    },
  };
}

/**
 * The app's own start, imported by nothing but the entry (index.html): main.tsx, the route table, the root and
 * public layouts, the route error page, the toaster's host, and the public menu's icon. The entry chunk holds these alone
 * (everything it shares with other chunks is in 'core'), and entryImportedByNone() fails the build if a chunk
 * imports it: the dashboard's frame runs it from its HTML (appShellPage), so a second copy fetched by URL would start
 * the app twice.
 */
const ENTRY_ONLY =
  /[\\/]src[\\/]client[\\/](main|app[\\/](router|toaster-host|layouts[\\/](root|public)-layout|routes[\\/]route-error))\.tsx$|lucide-react[\\/]dist[\\/]esm[\\/]icons[\\/]menu\.mjs$|^[^?]*[\\/]index\.html$/;

/** No chunk imports the entry chunk, statically or lazily (see ENTRY_ONLY). */
function entryImportedByNone(): Plugin {
  return {
    name: 'ruralroute-entry-imported-by-none',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((out) => out.type === 'chunk');
      const entry = chunks.find((c) => c.isEntry && c.name === 'index');
      if (!entry) this.error('no index entry chunk');
      for (const chunk of chunks) {
        if (chunk.imports.includes(entry.fileName) || chunk.dynamicImports.includes(entry.fileName))
          this.error(
            `${chunk.fileName} imports the entry chunk (${entry.fileName}): a module it wants is in ENTRY_ONLY ` +
              `(${entry.moduleIds.map((id) => relative(process.cwd(), id)).join(', ')})`,
          );
      }
    },
  };
}

/** The query layout and TanStack Query: the `query` chunk group below. */
const QUERY_GROUP = /src[\\/]client[\\/]app[\\/]layouts[\\/]query-layout\.tsx$|[\\/]node_modules[\\/]@tanstack[\\/]/;
/**
 * TanStack's modules the dashboard's first screen does not use, left out of that group: the infinite lists (the
 * browse pages) and hydration (offline/query-persistence.ts, after the first screen).
 */
const OFF_THE_FIRST_SCREEN_TANSTACK =
  /[\\/](infiniteQueryObserver|useInfiniteQuery|infiniteQueryOptions|useSuspenseInfiniteQuery|hydration)\.js$/;

/** Each source module's output chunk (set by the prerender plugin): a module in a chunk group has no manifest key. */
const moduleChunk = new Map<string, string>();

/** The chunks a page needs beyond the entry (its route modules and their static imports), to preload. */
function pageChunks(manifest: Manifest, modules: string[]): string[] {
  const keyOfFile = new Map(Object.entries(manifest).map(([key, chunk]) => [chunk.file, key]));
  const keyOf = (module: string) => {
    const file = moduleChunk.get(module);
    const key = manifest[module] ? module : file && keyOfFile.get(file);
    if (!key) throw new Error(`prerender: ${module} is not in the build manifest`);
    return key;
  };
  const reach = (keys: string[]) => {
    const files = new Set<string>();
    const visit = (key: string) => {
      const chunk = manifest[key];
      if (!chunk) throw new Error(`prerender: ${key} is not in the build manifest`);
      if (files.has(chunk.file)) return;
      files.add(chunk.file);
      chunk.imports?.forEach(visit);
    };
    keys.forEach(visit);
    return files;
  };
  // What the app's entry (index.html's module script) already loads.
  const loaded = reach(['index.html']);
  return [...reach(modules.map(keyOf))].filter((f) => !loaded.has(f));
}

/**
 * Puts the stylesheet into the page itself: on a slow mobile link the page then paints as soon as its HTML
 * arrives, instead of after a second round trip for render-blocking CSS (about 7 KB compressed).
 */
function inlineStylesheets(html: string, outDir: string): string {
  return html.replace(/<link rel="stylesheet"[^>]*href="\/(assets\/[^"]+\.css)"[^>]*>/g, (_tag, file: string) => {
    const css = readFileSync(join(outDir, file), 'utf8');
    if (css.includes('</style')) throw new Error(`prerender: ${file} cannot be inlined`);
    return `<style>${css}</style>`;
  });
}

/** A chunk's code to write into a page inside <script>: refused if it could end that element early. */
function inlineScript(code: string, what: string): string {
  if (/<\/script|<!--/i.test(code)) throw new Error(`prerender: the ${what} chunk cannot be inlined`);
  return code.trim();
}

/**
 * A prerendered page runs its scripts through src/client/boot.ts once its HTML has painted, instead of from <head>:
 * the module script Vite put there (and its preloads) is replaced by the list of chunks boot starts, and boot's own
 * code is written into the page (an inline module, allowed by its hash in the server's Content-Security-Policy:
 * src/server/http/inline-scripts.ts). Inline, it costs no round trip of its own: on the slow line of issue 34 the
 * chunks were asked for only once boot.js had come (1.1 to 1.3 s) instead of at the first paint (0.7 to 0.8 s). Not
 * preloaded from <head>: the page's text is then painted before any script arrives, on a fast line too, so that
 * nothing on the way to the first paint waits for the scripts (Lighthouse's simulated LCP counted every chunk that
 * had arrived before the paint: 2.0 to 2.4 s where the page paints in 1.1 to 1.3).
 */
function bootAfterPaint(html: string, chunks: string[], bootCode: string): string {
  const entry = html.match(/<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"><\/script>/);
  if (!entry) throw new Error('prerender: no module script in index.html');
  const list = [entry[1]!, ...chunks.map((f) => `/${f}`)];
  return html
    .replace(entry[0], '')
    .replace(/<link rel="modulepreload"[^>]*>/g, (tag) => {
      list.splice(1, 0, tag.match(/href="([^"]+)"/)![1]!);
      return '';
    })
    .replace(
      '</head>',
      () =>
        `<script id="rr-chunks" type="application/json">${JSON.stringify(list)}</script>` +
        `<script type="module">${inlineScript(bootCode, 'boot')}</script></head>`,
    );
}

/**
 * An app page's prerendered frame (the dashboard while the session is looked up) wants its scripts at once, not
 * after the paint: the app is what the visitor came for. At the top of <head>, before anything else the parser
 * must read:
 * - the page's first API requests, from a small script (src/client/early-requests.ts) written into the page (an
 *   inline module, allowed by its hash like boot's, and async: it runs as soon as it is parsed); in a file of its
 *   own it came a round trip after the HTML (0.9 s on the slow line of issue 34);
 * - every chunk of the first screen as a modulepreload (all fetched in parallel, no waterfall): 'core' and the
 *   route chunks.
 * The entry's own code (what no other chunk imports, ENTRY_ONLY) is written into the page too, in place of Vite's
 * module script, at the end of <body> (after the stylesheet and the frame, which paint first; a module script runs
 * after the parse wherever it stands): on a slow line its bytes then travel with the HTML, in the round trip the
 * browser spends waiting for the first chunk, instead of sharing the line with the chunks after it. Its #root is
 * marked so the app renders over the frame instead of hydrating it (src/client/main.tsx).
 */
function appShellPage(
  html: string,
  chunks: string[],
  earlyCode: string,
  requests: unknown[],
  entryCode: string,
): string {
  const vitePreloads: string[] = [];
  const withoutPreloads = html.replace(/<link rel="modulepreload"[^>]*>/g, (tag) => {
    vitePreloads.push(tag);
    return '';
  });
  const preloads =
    vitePreloads.join('') + chunks.map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`).join('');
  const entry = /<script type="module" crossorigin src="\/assets\/[^"]+\.js"><\/script>/;
  if (!entry.test(withoutPreloads)) throw new Error('prerender: no module script in index.html');
  return withoutPreloads
    .replace(
      /<meta charset="UTF-8" \/>/,
      (tag) =>
        `${tag}<script id="rr-early" type="application/json">${JSON.stringify(requests)}</script>` +
        `<script type="module" async>${inlineScript(earlyCode, 'early-requests')}</script>${preloads}`,
    )
    .replace(entry, '')
    .replace('</body>', () => `<script type="module" crossorigin>${inlineScript(entryCode, 'entry')}</script></body>`);
}

/**
 * The entry chunk's code to run from a page's HTML: its imports of other chunks ('./core-….js', relative to the
 * chunk's own URL) made absolute, as a script in the page resolves them against the page's address. Every such
 * import must name a file of the build.
 */
function inlineEntry(code: string, assetsDir: string): string {
  const files = new Set(readdirSync(assetsDir));
  const inline = code.replace(/(["'`])\.\/([\w.-]+\.js)\1/g, (_literal, quote: string, file: string) => {
    if (!files.has(file)) throw new Error(`prerender: the entry imports ./${file}, which the build did not make`);
    return `${quote}/assets/${file}${quote}`;
  });
  if (/(["'`])\.\.?\//.test(inline)) throw new Error('prerender: the entry keeps a relative import');
  return inline;
}

/**
 * After the client build, renders every public page with scripts/prerender.tsx (loaded through Vite's SSR loader
 * so aliases and TSX work) into a copy of index.html: the page's markup, <title>, description, inline CSS and its chunks,
 * written to dist/client/<path>/index.html, which the server sends for that path.
 * Kept in this file: a local import here would make Vite's config loader warn about extensionless imports.
 */
function prerender(): Plugin {
  let config: ResolvedConfig;
  let written = false;
  return {
    name: 'ruralroute-prerender',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    generateBundle(_options, bundle) {
      for (const out of Object.values(bundle)) {
        if (out.type !== 'chunk') continue;
        for (const id of out.moduleIds) moduleChunk.set(relative(config.root, id), out.fileName);
      }
    },
    writeBundle() {
      written = true;
    },
    // Sequential: the service worker (generated next) precaches the pages this writes.
    closeBundle: {
      sequential: true,
      async handler() {
        // The build failed before its files were written: that error is the one to see.
        if (config.build.ssr || !written) return;
        const outDir = config.build.outDir;
        const template = readFileSync(join(outDir, 'index.html'), 'utf8');
        // The shell stays available for the pages rendered in the browser only (/dashboard, 404).
        writeFileSync(join(outDir, 'shell.html'), template);
        const manifest = JSON.parse(readFileSync(join(outDir, '.vite/manifest.json'), 'utf8')) as Manifest;
        const boot = manifest['src/client/boot.ts']?.file;
        if (!boot) throw new Error('prerender: src/client/boot.ts is not in the build manifest');
        if (manifest['src/client/boot.ts']?.imports?.length) throw new Error('prerender: the boot chunk imports');
        const bootCode = readFileSync(join(outDir, boot), 'utf8');
        const early = manifest['src/client/early-requests.ts']?.file;
        if (!early) throw new Error('prerender: src/client/early-requests.ts is not in the build manifest');
        const earlyCode = readFileSync(join(outDir, early), 'utf8');
        const entryFile = manifest['index.html']?.file;
        if (!entryFile) throw new Error('prerender: index.html is not in the build manifest');
        const entryCode = inlineEntry(readFileSync(join(outDir, entryFile), 'utf8'), join(outDir, 'assets'));
        // An import would hold the early requests back until the imported chunk had downloaded (it once waited for
        // the query chunk: the dashboard's first requests started 2.7 s late on the slow line).
        const earlyImports = manifest['src/client/early-requests.ts']?.imports ?? [];
        if (earlyImports.length)
          throw new Error(`prerender: the early-requests chunk imports ${earlyImports.join(', ')}`);
        const server = await createServer({
          root: config.root,
          configFile: false,
          logLevel: 'error',
          resolve: { alias: config.resolve.alias },
          server: { middlewareMode: true, hmr: false, ws: false },
          appType: 'custom',
          optimizeDeps: { noDiscovery: true, include: [] },
        });
        try {
          const mod = (await server.ssrLoadModule('/scripts/prerender.tsx')) as typeof import('./scripts/prerender');
          for (const page of mod.PRERENDERED_PAGES) {
            const dir = join(outDir, page.path);
            mkdirSync(dir, { recursive: true });
            // The page, and its versions for a query value (/auth?tab=signup), each beside it in its directory.
            for (const { url, file } of [{ url: page.path, file: 'index.html' }, ...(page.variants ?? [])]) {
              const { body, head } = await mod.renderPage(url);
              const root = '<div id="root"><!--app-html--></div>';
              if (!template.includes(root)) throw new Error(`prerender: index.html lacks ${root}`);
              const chunks = pageChunks(manifest, page.modules);
              const styled = inlineStylesheets(template, outDir);
              const html = (
                page.appShell
                  ? appShellPage(styled, chunks, earlyCode, page.appShell.requests, entryCode)
                  : bootAfterPaint(styled, chunks, bootCode)
              )
                .replace(/<title>[^<]*<\/title>/, '')
                .replace(/<meta\s+name="description"[^>]*>/, '')
                .replace('</head>', `${head}</head>`)
                .replace(root, () => `<div id="root"${page.appShell ? ' data-app-shell' : ''}>${body}</div>`);
              writeFileSync(join(dir, file), html);
            }
          }
          config.logger.info(`prerendered ${mod.PRERENDERED_PAGES.length} pages`);
        } finally {
          await server.close();
          // The manifest was only needed here; it is not for the public.
          rmSync(join(outDir, '.vite'), { recursive: true, force: true });
        }
      },
    },
  };
}

/** The web app manifest: what a phone shows when RuralRoute is added to its home screen. */
const WEB_APP_MANIFEST: Partial<ManifestOptions> = {
  id: '/dashboard',
  name: 'RuralRoute',
  short_name: 'RuralRoute',
  description: 'Share the road, share the load: rides and deliveries between rural neighbours.',
  lang: 'en',
  start_url: '/dashboard',
  scope: '/',
  display: 'standalone',
  // The app's palette (src/client/styles.css): primary green bars, white pages.
  theme_color: '#166534',
  background_color: '#ffffff',
  icons: [
    { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
    { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
    { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
  ],
};

/**
 * The precache lists build files; a page is asked for by its URL. A prerendered page is precached as its path
 * ('privacy/index.html' -> '/privacy'), which the server fills in (support e-mail, date) like any visit, and which
 * a navigation then matches exactly. Everything else keeps its file name ('shell.html' is the app shell).
 */
type ManifestTransform = NonNullable<NonNullable<VitePWAOptions['workbox']>['manifestTransforms']>[number];
const pageUrls: ManifestTransform = (entries) => ({
  manifest: entries.map((entry) => {
    const page = /^(?:(.*)\/)?index\.html$/.exec(entry.url);
    return page ? { ...entry, url: `/${page[1] ?? ''}` } : entry;
  }),
  warnings: [],
});

/**
 * The service worker (docs/decisions/022-service-worker.md): the app shell, the prerendered pages and every static
 * file precached (hashed files by name, so cache-first); navigations to app routes answered with the shell; /api
 * never touched. A new version waits until the app tells it to take over (src/client/lib/service-worker.ts).
 */
function serviceWorker() {
  return VitePWA({
    strategies: 'generateSW',
    // The app registers the worker itself, after the page has loaded.
    injectRegister: false,
    registerType: 'prompt',
    manifest: WEB_APP_MANIFEST,
    includeManifestIcons: false,
    workbox: {
      // The plugin adds the manifest itself.
      globPatterns: ['**/*.{js,css,html,svg,png}'],
      globIgnores: [
        // Precompressed copies are the server's business.
        '**/*.{br,gz}',
        // The sign-up form's list of common passwords (235 KB compressed): signing up needs the signal anyway.
        'assets/common-passwords-*.js',
        // A page's version for a query value (auth/index.tab-signup.html): offline, /auth?tab=signup gets the
        // shell and renders the 'Sign Up' tab in the browser; /auth itself is precached.
        '**/index.*-*.html',
      ],
      manifestTransforms: [pageUrls],
      navigateFallback: '/shell.html',
      navigateFallbackDenylist: [/^\/api(\/|$)/],
      // One file, no importScripts: nothing else to keep in step with the worker.
      inlineWorkboxRuntime: true,
      skipWaiting: false,
      // A first visit's page is taken over at once (no older version to clash with), so its later navigations
      // read their code from the cache; an update still waits (skipWaiting off).
      clientsClaim: true,
      cleanupOutdatedCaches: true,
    },
  });
}

export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    noChunkCycles(),
    firstScreenIcons(),
    entryImportedByNone(),
    prerender(),
    serviceWorker(),
    precompress(),
  ],
  resolve: {
    alias: [
      { find: '@shared', replacement: new URL('./src/shared', import.meta.url).pathname },
      { find: '@', replacement: new URL('./src/client', import.meta.url).pathname },
      // wouter reaches React's useSyncExternalStore through the package that adds it to React 17 and older: React 19
      // has it, so the app's build (and the prerender, on React 19 too) takes React's own.
      {
        find: /^use-sync-external-store\/shim\/index\.js$/,
        replacement: new URL('./src/client/lib/use-sync-external-store.ts', import.meta.url).pathname,
      },
    ],
  },
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    sourcemap: false,
    target: 'es2022',
    manifest: true,
    // One stylesheet for the whole app (Tailwind's output), inlined into every prerendered page and linked from the
    // shell. Split per chunk, Vite listed it as a dependency of every lazy chunk that depends on the entry, and its
    // preload helper, finding no <link> to it in a page that has it inline, downloaded it again (7.5 KB on the
    // dashboard's first visit, while the page's data came).
    cssCodeSplit: false,
    // Every browser that runs ES2022 supports <link rel="modulepreload">: no polyfill in the entry.
    modulePreload: { polyfill: false },
    // boot.ts is its own entry: prerendered pages load it instead of the app's entry (see bootAfterPaint); so is
    // early-requests.ts, which an app page's frame loads first (see appShellPage).
    rolldownOptions: {
      input: { index: 'index.html', boot: 'src/client/boot.ts', early: 'src/client/early-requests.ts' },
      // Groups without their dependencies (includeDependenciesRecursively: false, the default here) left those in the
      // route chunks, chunks imported each other, and a chunk evaluated first read another's icons before they
      // existed (React error #130 on the dashboard, now and then). So the first screen's groups below take their
      // dependencies with them (decision 025); only the icons, which depend on nothing but lucide's base in the
      // entry, do not.
      output: {
        codeSplitting: {
          includeDependenciesRecursively: false,
          groups: [
            // The dashboard's first screen's shared icons (FIRST_SCREEN_ICONS), apart from the rest.
            {
              name: 'first-icons',
              test: new RegExp(
                `lucide-react[\\\\/]dist[\\\\/]esm[\\\\/]icons[\\\\/](${FIRST_SCREEN_ICONS.join('|')})\\.mjs$`,
              ),
              minShareCount: 2,
              priority: 1,
            },
            // Icons used by more than one page: one small chunk instead of one request per icon.
            { name: 'icons', test: /lucide-react[\\/]dist[\\/]esm[\\/]icons[\\/]/, minShareCount: 2 },
            // What the app's entry loads before anything else (React, the router, the layouts' basics): one file,
            // 'core'. The entry keeps only what no other chunk imports (ENTRY_ONLY), so the dashboard's frame can
            // carry it in its HTML (see appShellPage).
            {
              name: 'core',
              tags: ['$initial'],
              test: (id: string) =>
                !/[\\/]src[\\/]client[\\/](boot|early-requests|lib[\\/]early-responses)\.ts$/.test(id) &&
                !ENTRY_ONLY.test(id),
              priority: 2,
            },
            // Dates and their formats, for the dashboard and the public pages that show a date (/privacy, /terms):
            // on their own, or the group below would take them in and those pages would load the dashboard's code.
            {
              name: 'dates',
              test: /src[\\/](shared[\\/]dates|client[\\/]lib[\\/]format)\.ts$/,
              includeDependenciesRecursively: true,
              priority: 2,
            },
            // The plans' names and rules (issue 38): the session's schema (/auth's forms) and the dashboard's first screen
            // both read them; on their own, or the dashboard group would take them in and /auth would load it.
            {
              name: 'plans',
              test: /src[\\/]shared[\\/]plans\.ts$/,
              priority: 2,
            },
            // The shadcn-style basics (cn, Button, Card, Input, Label; tailwind-merge comes after the first screen) and
            // what every form says with (the toasts, the API's error class): out of the entry (no prerendered page's first screen needs them), in one chunk of
            // their own that the forms of /contact and /auth share with the dashboard, rather than in the dashboard's
            // or the query group, which those pages would then load.
            {
              name: 'ui',
              test: /src[\\/]client[\\/](lib[\\/](utils|api-error|toast|form-errors|session-channel)\.ts|components[\\/]ui[\\/](button|card|input|label)\.tsx)$/,
              includeDependenciesRecursively: true,
              priority: 1,
            },
            // The layout of every page that talks to the API (/auth, /contact, the dashboard) with what it needs
            // beyond the entry (all of TanStack Query, the API client, the outbox): one file. With its dependencies, so
            // no chunk is left importing another that imports it back.
            {
              name: 'query',
              test: (id: string) => QUERY_GROUP.test(id) && !OFF_THE_FIRST_SCREEN_TANSTACK.test(id),
              includeDependenciesRecursively: true,
              priority: 1,
            },
            // Likewise the dashboard's first screen beyond that: one file, not twenty (each costs a round trip on a
            // slow line, six at a time over HTTP/1.1).
            {
              name: 'dashboard',
              test: /src[\\/]client[\\/]app[\\/](layouts[\\/]dashboard-layout|routes[\\/]dashboard-home)\.tsx$/,
              includeDependenciesRecursively: true,
              priority: 0,
            },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    // The API runs on PORT (3000) under `npm run dev`; the proxy keeps the browser on one origin.
    proxy: { '/api': { target: `http://localhost:${process.env.PORT ?? 3000}` } },
  },
});
