import { readFile } from 'node:fs/promises';
import type { Server as HttpServer } from 'node:http';
import { createSecureServer } from 'node:http2';
import { createSecureContext } from 'node:tls';
import { resolve } from 'node:path';
import { serve } from '@hono/node-server';
import { createApp } from './app';
import { openDatabase } from './db/client';
import { readEnv, startupWarnings, type Env } from './env';
import { loadPlaces } from './places';

// `npm start` runs the build of this file (dist/server/main.js); its prestart step builds what is stale first.
const started = performance.now();
const clientDir = resolve(process.cwd(), 'dist/client');

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

let env: Env;
try {
  env = readEnv();
} catch (err) {
  fail((err as Error).message);
}
for (const warning of startupWarnings(env)) console.warn(`[start] warning: ${warning}`);

/** With TLS_CERT and TLS_KEY: HTTPS, HTTP/2 with HTTP/1.1 beside it on the same port (ALPN chooses). */
async function tlsOptions() {
  if (!env.TLS_CERT || !env.TLS_KEY) return undefined;
  let options;
  try {
    options = { cert: await readFile(env.TLS_CERT), key: await readFile(env.TLS_KEY), allowHTTP1: true };
  } catch (err) {
    fail(`[start] could not read TLS_CERT or TLS_KEY: ${(err as Error).message}`);
  }
  try {
    createSecureContext({ cert: options.cert, key: options.key }); // not PEM, or a key that is not the certificate's
  } catch (err) {
    fail(`[start] TLS_CERT and TLS_KEY are not a certificate and its key: ${(err as Error).message}`);
  }
  return options;
}
const tls = await tlsOptions();

const database = await openDatabase({
  url: env.DATABASE_URL,
  dataDir: env.DATA_DIR,
  migrate: env.MIGRATE_ON_START,
  prepare: env.DATABASE_PREPARE,
  listenUrl: env.DATABASE_LISTEN_URL,
}).catch((err: Error) => fail(`[start] could not open the database: ${err.message}`));

// The gazetteer on first start, after the migrations made its tables: once, whichever instance is first
// (`npm run db:migrate` loads it too). Later starts only count the rows.
const loading = performance.now();
const loaded = await loadPlaces(database.db).catch(async (err: Error) => {
  await database.close();
  fail(`[start] could not load the places: ${err.message}`);
});
if (loaded) console.log(`[start] loaded ${loaded} places in ${Math.round(performance.now() - loading)} ms`);

let app: ReturnType<typeof createApp>;
try {
  app = createApp({
    db: database.db,
    env,
    clientDir: env.SERVE_CLIENT ? clientDir : undefined,
    notifications: database.notifications,
  });
} catch (err) {
  await database.close();
  fail(`[start] ${(err as Error).message} (build it with \`npm run build\`, or set SERVE_CLIENT=false)`);
}

const server = serve(
  {
    fetch: app.fetch,
    port: env.PORT,
    hostname: env.HOST,
    ...(tls ? { createServer: createSecureServer, serverOptions: tls } : {}),
  },
  (info) => {
    const where =
      database.kind === 'pglite' ? `embedded PGlite in ${resolve(env.DATA_DIR)}` : 'PostgreSQL (DATABASE_URL)';
    const address = `${tls ? 'https' : 'http'}://localhost:${info.port}${tls ? ' (HTTP/2)' : ''}`;
    console.log(
      `RuralRoute listening on ${address} (pid ${process.pid}) — database: ${where} — ready in ${Math.round(performance.now() - started)} ms`,
    );
  },
);
// An idle keep-alive connection is closed by the client or the proxy in front, not by us first: Node's default of 5 s
// races a client reusing the socket just then (ECONNRESET on its next request). Above the usual proxy idle timeout
// (60 s); the headers timeout must exceed it. server.close() still closes idle connections at once.
Object.assign(server as HttpServer, { keepAliveTimeout: 65_000, headersTimeout: 66_000 });
server.on('error', async (err) => {
  await database.close();
  fail(`[start] could not listen on ${env.HOST}:${env.PORT}: ${err.message}`);
});

let closing = false;
function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  console.log(`[stop] ${signal}: closing`);
  // Live event streams never end by themselves: end them first, or server.close would wait for them. The database
  // closes once the app has stopped too (its timers, and the job worker's jobs in flight).
  const appClosed = app.close().catch((err: Error) => console.warn('[stop] closing the app failed:', err.message));
  server.close(() => {
    void appClosed.then(() => database.close()).finally(() => process.exit(0));
  });
  setTimeout(() => process.exit(0), 5000).unref();
}
process.on('SIGINT', () => shutdown('SIGINT'));
process.on('SIGTERM', () => shutdown('SIGTERM'));
