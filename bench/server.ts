/**
 * The API alone (no client build), for the benchmark: started by bench/api.ts as a separate process so that the
 * load generator and the server do not share one event loop.
 */
import cluster from 'node:cluster';
import { serve } from '@hono/node-server';
import type { Pool } from 'pg';
import { createApp } from '../src/server/app';
import { openDatabase } from '../src/server/db/client';
import { readEnv } from '../src/server/env';

/**
 * BENCH_PROCESSES=N (default 1): N API processes on the one port, as node:cluster shares it (the primary hands each
 * new connection to the next worker), each with its own pool; the primary only forwards SIGTERM. What one process
 * per core would give on this machine, beside the same load generator.
 */
const PROCESSES = Number(process.env.BENCH_PROCESSES ?? 1);
if (PROCESSES > 1 && cluster.isPrimary) {
  let listening = 0;
  for (let i = 0; i < PROCESSES; i++)
    cluster.fork().on('listening', (address) => {
      if (++listening === PROCESSES) console.log(`bench-server listening on ${address.port} (${PROCESSES} processes)`);
    });
  process.on('SIGTERM', () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.kill('SIGTERM');
    setTimeout(() => process.exit(0), 3000).unref();
  });
  cluster.on('exit', () => {
    if (!Object.keys(cluster.workers ?? {}).length) process.exit(0);
  });
} else {
  await runServer();
}

async function runServer() {
  if (process.env.BENCH_TRACE_PAUSES === '1') {
    // Diagnostics: report every GC pause and event-loop stall over 20 ms on stderr (the bench inherits it).
    const { PerformanceObserver, monitorEventLoopDelay } = await import('node:perf_hooks');
    new PerformanceObserver((list) => {
      for (const e of list.getEntries())
        if (e.duration > 20)
          console.error(
            `[server] gc pause ${e.duration.toFixed(1)} ms (kind ${JSON.stringify((e as { detail?: unknown }).detail)})`,
          );
    }).observe({ entryTypes: ['gc'] });
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    setInterval(() => {
      if (delay.max / 1e6 > 20)
        console.error(`[server] event-loop delay max ${(delay.max / 1e6).toFixed(1)} ms in the last second`);
      delay.reset();
    }, 1000).unref();
  }

  const env = readEnv();
  const database = await openDatabase({
    url: env.DATABASE_URL,
    dataDir: env.DATA_DIR,
    poolSize: Number(process.env.BENCH_POOL_SIZE ?? 10),
  });
  const app = createApp({ db: database.db, env, notifications: database.notifications });
  let fetch: typeof app.fetch = app.fetch;
  if (process.env.BENCH_TRACE === '1') {
    // bench/trace-server.ts; the pool is the one drizzle was given (PGlite has none: no pool waits, no churn).
    const { startTracer } = await import('./trace-server');
    const pool = database.kind === 'postgres' ? (database.db as unknown as { $client: Pool }).$client : undefined;
    const tracer = startTracer({ port: Number(process.env.BENCH_TRACE_PORT), pool });
    fetch = (request, ...rest) => {
      tracer.request();
      return app.fetch(request, ...rest);
    };
  }
  const server = serve({ fetch, port: env.PORT, hostname: '127.0.0.1' }, (info) => {
    console.log(`bench-server listening on ${info.port}`);
  });
  process.on('SIGTERM', () => {
    // Let in-flight requests finish before the pool goes away.
    server.close(() => {
      database.close().finally(() => process.exit(0));
    });
    setTimeout(() => process.exit(0), 3000).unref();
  });
}
