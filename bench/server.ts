/**
 * The API alone (no client build), for the benchmark: started by bench/api.ts as a separate process so that the
 * load generator and the server do not share one event loop.
 */
import { serve } from '@hono/node-server';
import { createApp } from '../src/server/app';
import { openDatabase } from '../src/server/db/client';
import { readEnv } from '../src/server/env';

const env = readEnv();
const database = await openDatabase({
  url: env.DATABASE_URL,
  dataDir: env.DATA_DIR,
  poolSize: Number(process.env.BENCH_POOL_SIZE ?? 10),
});
const app = createApp({ db: database.db, env });
const server = serve({ fetch: app.fetch, port: env.PORT, hostname: '127.0.0.1' }, (info) => {
  console.log(`bench-server listening on ${info.port}`);
});
process.on('SIGTERM', () => {
  // Let in-flight requests finish before the pool goes away.
  server.close(() => {
    database.close().finally(() => process.exit(0));
  });
  setTimeout(() => process.exit(0), 3000).unref();
});
