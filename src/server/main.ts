import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { serve } from '@hono/node-server';
import { createApp } from './app';
import { clientBuildIsStale } from './build-check';
import { openDatabase } from './db/client';
import { readEnv } from './env';

const started = performance.now();
const root = process.cwd();
const clientDir = resolve(root, 'dist/client');

let env;
try {
  env = readEnv();
} catch (err) {
  console.error((err as Error).message);
  process.exit(1);
}

if (env.SERVE_CLIENT && clientBuildIsStale(root, clientDir)) {
  console.log('[start] client build missing or stale: building it (once)...');
  const result = spawnSync(
    process.execPath,
    [resolve(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'],
    {
      stdio: 'inherit',
      cwd: root,
    },
  );
  if (result.status !== 0) {
    console.error('[start] client build failed; see the output above.');
    process.exit(1);
  }
}

const database = await openDatabase({
  url: env.DATABASE_URL,
  dataDir: env.DATA_DIR,
  listenUrl: env.DATABASE_LISTEN_URL,
}).catch((err: Error) => {
  console.error(`[start] could not open the database: ${err.message}`);
  process.exit(1);
});
const app = createApp({
  db: database.db,
  env,
  clientDir: env.SERVE_CLIENT ? clientDir : undefined,
  notifications: database.notifications,
});

const server = serve({ fetch: app.fetch, port: env.PORT, hostname: env.HOST }, (info) => {
  const where =
    database.kind === 'pglite' ? `embedded PGlite in ${resolve(env.DATA_DIR)}` : 'PostgreSQL (DATABASE_URL)';
  console.log(
    `RuralRoute listening on http://localhost:${info.port} — database: ${where} — ready in ${Math.round(performance.now() - started)} ms`,
  );
});

let closing = false;
function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  console.log(`[stop] ${signal}: closing`);
  server.close(() => {
    database.close().finally(() => process.exit(0));
  });
  setTimeout(() => process.exit(0), 5000).unref();
}
process.on('SIGINT', () => shutdown('SIGINT'));
process.on('SIGTERM', () => shutdown('SIGTERM'));
