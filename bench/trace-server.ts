/**
 * BENCH_TRACE=1: what the API process under test spends its time on besides its own code, for bench/api.ts to read
 * per bench row. Event-loop delay, GC pauses by kind, how long a request waits for a pool connection, new
 * connections opened (churn), the time each query takes as the API sees it (send to answer), and the process's
 * CPU. Served on its own port (BENCH_TRACE_PORT) so the app's routes and middleware stay exactly as they are;
 * `POST /reset` starts a window, `GET /` reads it. Only instance methods of this process's pool and clients are
 * wrapped, with a performance.now() pair each: nothing else on the hot path changes.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { constants, createHistogram, monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import type { Pool, PoolClient } from 'pg';

const GC_KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
};

export interface GcKindStats {
  count: number;
  totalMs: number;
  maxMs: number;
}

/** One window's figures (times in ms unless named otherwise). */
export interface TraceSnapshot {
  seconds: number;
  requests: number;
  cpuUserMs: number;
  cpuSystemMs: number;
  eventLoop: { p50: number; p99: number; max: number };
  gc: Record<string, GcKindStats>;
  pool: null | {
    acquires: number;
    waitP50: number;
    waitP99: number;
    waitMax: number;
    waitTotalMs: number;
    /** Acquires that waited over 1 ms (a queue on the pool, or a new connection being opened). */
    waitedOver1ms: number;
    /** The longest queue of other callers seen at an acquire. */
    maxQueued: number;
    newConnections: number;
    removedConnections: number;
    totalConnections: number;
  };
  queries: null | { count: number; totalMs: number; p99: number; max: number };
}

const ms = (ns: number) => Math.round((ns / 1e6) * 100) / 100;

/** Starts tracing and its control port; `request()` counts one answered request (the server's fetch calls it). */
export function startTracer(opts: { port: number; pool?: Pool }): { request: () => void } {
  // 1 ms resolution would hide the sub-millisecond delays of a healthy loop; 10 ms is the sampling timer's period.
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  let gc: Record<string, GcKindStats> = {};
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const kind = GC_KINDS[(e as { detail?: { kind?: number } }).detail?.kind ?? -1] ?? 'other';
      const s = (gc[kind] ??= { count: 0, totalMs: 0, maxMs: 0 });
      s.count += 1;
      s.totalMs += e.duration;
      s.maxMs = Math.max(s.maxMs, e.duration);
    }
  }).observe({ entryTypes: ['gc'] });

  let requests = 0;

  // Pool waits: pg-pool's query() goes through this.connect() too, so wrapping the instance's connect() sees every
  // acquire (single queries and transactions). Histograms take integers: nanoseconds.
  const wait = createHistogram();
  const query = createHistogram();
  let poolCounts = { acquires: 0, waitTotalNs: 0, waitedOver1ms: 0, maxQueued: 0, opened: 0, removed: 0 };
  let queryTotalNs = 0;
  const pool = opts.pool;
  if (pool) {
    const connect = pool.connect.bind(pool) as (cb?: (...a: unknown[]) => void) => Promise<PoolClient> | undefined;
    const record = (started: number) => {
      const ns = Math.max(1, Math.round((performance.now() - started) * 1e6));
      wait.record(ns);
      poolCounts.acquires += 1;
      poolCounts.waitTotalNs += ns;
      if (ns > 1e6) poolCounts.waitedOver1ms += 1;
    };
    (pool as unknown as { connect: typeof connect }).connect = (cb) => {
      const started = performance.now();
      poolCounts.maxQueued = Math.max(poolCounts.maxQueued, pool.waitingCount);
      if (cb)
        return connect((...args: unknown[]) => {
          record(started);
          cb(...args);
        });
      return connect()!.then((client) => {
        record(started);
        return client;
      });
    };
    pool.on('connect', (client) => {
      poolCounts.opened += 1;
      wrapQuery(client, (ns) => {
        query.record(Math.max(1, ns));
        queryTotalNs += ns;
      });
    });
    pool.on('remove', () => {
      poolCounts.removed += 1;
    });
  }

  let since = performance.now();
  let cpu = process.cpuUsage();
  const reset = () => {
    since = performance.now();
    cpu = process.cpuUsage();
    loop.reset();
    gc = {};
    requests = 0;
    wait.reset();
    query.reset();
    queryTotalNs = 0;
    poolCounts = { acquires: 0, waitTotalNs: 0, waitedOver1ms: 0, maxQueued: 0, opened: 0, removed: 0 };
  };
  const snapshot = (): TraceSnapshot => {
    const used = process.cpuUsage(cpu);
    return {
      seconds: (performance.now() - since) / 1000,
      requests,
      cpuUserMs: used.user / 1000,
      cpuSystemMs: used.system / 1000,
      eventLoop: { p50: ms(loop.percentile(50)), p99: ms(loop.percentile(99)), max: ms(loop.max) },
      gc,
      pool: pool
        ? {
            acquires: poolCounts.acquires,
            waitP50: ms(wait.count ? wait.percentile(50) : 0),
            waitP99: ms(wait.count ? wait.percentile(99) : 0),
            waitMax: ms(wait.count ? wait.max : 0),
            waitTotalMs: ms(poolCounts.waitTotalNs),
            waitedOver1ms: poolCounts.waitedOver1ms,
            maxQueued: poolCounts.maxQueued,
            newConnections: poolCounts.opened,
            removedConnections: poolCounts.removed,
            totalConnections: pool.totalCount,
          }
        : null,
      queries: pool
        ? {
            count: query.count,
            totalMs: ms(queryTotalNs),
            p99: ms(query.count ? query.percentile(99) : 0),
            max: ms(query.count ? query.max : 0),
          }
        : null,
    };
  };

  const profiler = process.env.BENCH_PROFILE_DIR ? cpuProfiler(process.env.BENCH_PROFILE_DIR) : null;
  const server = createServer((req, res) => {
    void (async () => {
      if (req.method === 'POST' && req.url === '/reset') {
        reset();
        await profiler?.start();
      }
      const body = req.method === 'POST' ? '{}' : JSON.stringify(snapshot());
      if (req.method !== 'POST') await profiler?.stop();
      res.setHeader('content-type', 'application/json');
      res.end(body);
    })();
  });
  server.listen(opts.port, '127.0.0.1');
  server.unref();
  return {
    request: () => {
      requests += 1;
    },
  };
}

/**
 * Times each query of one pool client from send to answer (its callback or promise): the database's time as the API
 * sees it, round trip and the driver's parsing included. Streams (a Submittable) pass through untimed.
 */
function wrapQuery(client: PoolClient, record: (ns: number) => void) {
  const original = client.query.bind(client) as (...args: unknown[]) => unknown;
  const timed = (...args: unknown[]) => {
    const started = performance.now();
    const done = () => record(Math.round((performance.now() - started) * 1e6));
    const last = args.at(-1);
    if (typeof last === 'function') {
      args[args.length - 1] = (...result: unknown[]) => {
        done();
        (last as (...r: unknown[]) => void)(...result);
      };
      return original(...args);
    }
    const result = original(...args);
    if (result instanceof Promise)
      return result.then(
        (value: unknown) => {
          done();
          return value;
        },
        (err: unknown) => {
          done();
          throw err;
        },
      );
    return result;
  };
  (client as unknown as { query: typeof timed }).query = timed;
}

/**
 * BENCH_PROFILE_DIR (with BENCH_TRACE=1): a CPU profile of the API process for each window (from `POST /reset` to the
 * next read), written as `<n>.cpuprofile` in that directory; `npx tsx bench/profile-summary.ts <file>` prints where
 * the time went. Sampling costs a little CPU itself: figures of a profiled run are not the bench's figures.
 */
function cpuProfiler(dir: string) {
  mkdirSync(dir, { recursive: true });
  const session = new Session();
  session.connect();
  let running = false;
  let n = 0;
  return {
    async start() {
      if (running) await session.post('Profiler.stop');
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 200 });
      await session.post('Profiler.start');
      running = true;
    },
    async stop() {
      if (!running) return;
      running = false;
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(join(dir, `${++n}.cpuprofile`), JSON.stringify(profile));
    },
  };
}
