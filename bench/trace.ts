/**
 * The bench's side of BENCH_TRACE=1 (bench/trace-server.ts runs in the API process): resets the server's window
 * before a row, reads it after, and adds the database's own execution time from pg_stat_statements when the server
 * loads it (`WITH_POSTGRES_OPTIONS="-c shared_preload_libraries=pg_stat_statements"` for scripts/with-postgres.sh).
 * One printable row per bench row.
 */
import pg from 'pg';
import type { TraceSnapshot } from './trace-server';

export const TRACE = process.env.BENCH_TRACE === '1';

export interface Tracer {
  reset(): Promise<void>;
  read(endpoint: string, pass: string): Promise<void>;
  rows: Record<string, string | number>[];
  /** BENCH_TRACE_TOP=N: per row, the N statements with the most database time (from pg_stat_statements). */
  top: string[];
  /** 'pg_stat_statements' or why the db exec column is empty. */
  dbSource: string;
  close(): Promise<void>;
}

const TOP = Number(process.env.BENCH_TRACE_TOP ?? 0);

const fixed = (n: number, digits = 1) => n.toFixed(digits);

export async function createTracer(port: number, url: string | undefined): Promise<Tracer> {
  const base = `http://127.0.0.1:${port}`;
  let client: pg.Client | undefined;
  let dbSource = 'no database server (PGlite)';
  if (url) {
    client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query('create extension if not exists pg_stat_statements');
      await client.query('select 1 from pg_stat_statements limit 1');
      dbSource = 'pg_stat_statements';
    } catch (err) {
      dbSource = `pg_stat_statements unavailable (${(err as Error).message})`;
    }
  }
  const statements = dbSource === 'pg_stat_statements' ? client : undefined;
  const rows: Record<string, string | number>[] = [];
  const top: string[] = [];
  return {
    rows,
    top,
    dbSource,
    async reset() {
      if (statements) await statements.query('select pg_stat_statements_reset()');
      await fetch(`${base}/reset`, { method: 'POST' });
    },
    async read(endpoint, pass) {
      const t = (await (await fetch(base)).json()) as TraceSnapshot;
      let db: { ms: number; calls: number } | undefined;
      if (statements) {
        // This database only, without the bench's own monitoring statements.
        const { rows: [sum] = [] } = await statements.query<{ ms: number; calls: string }>(
          `select coalesce(sum(total_exec_time), 0)::float8 as ms, coalesce(sum(calls), 0) as calls
           from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database())
             and query not like '%pg_stat%' and query not like '%pg_database%'`,
        );
        db = sum ? { ms: sum.ms, calls: Number(sum.calls) } : undefined;
        if (TOP > 0) {
          const { rows: heavy } = await statements.query<{ ms: number; calls: string; query: string }>(
            `select total_exec_time::float8 as ms, calls, query from pg_stat_statements
             where dbid = (select oid from pg_database where datname = current_database())
               and query not like '%pg_stat%' and query not like '%pg_database%'
             order by total_exec_time desc limit $1`,
            [TOP],
          );
          top.push(
            `-- ${endpoint} (${pass}): the ${heavy.length} statements with the most database time`,
            ...heavy.map(
              (h) =>
                `${fixed(h.ms, 0).padStart(7)} ms ${String(h.calls).padStart(6)} calls ` +
                `${fixed((h.ms * 1000) / Math.max(1, Number(h.calls)), 0).padStart(6)} µs/call  ` +
                h.query.replace(/\s+/g, ' ').slice(0, 160),
            ),
          );
        }
      }
      const n = Math.max(1, t.requests);
      const perRequestUs = (totalMs: number) => Math.round((totalMs * 1000) / n);
      const gc = (kind: string) => {
        const s = t.gc[kind];
        return s ? `${s.count} / ${fixed(s.totalMs)} / ${fixed(s.maxMs)}` : '0';
      };
      const otherGc = Object.entries(t.gc)
        .filter(([k]) => k !== 'minor' && k !== 'major')
        .map(([k, s]) => `${k} ${s.count}/${fixed(s.maxMs)}`)
        .join(', ');
      const p = t.pool;
      rows.push({
        endpoint,
        pass,
        requests: t.requests,
        'loop delay p50/p99/max ms': `${fixed(t.eventLoop.p50)} / ${fixed(t.eventLoop.p99)} / ${fixed(t.eventLoop.max)}`,
        'gc minor n / ms / max': gc('minor'),
        'gc major n / ms / max': gc('major'),
        'gc other': otherGc || '-',
        'gc ms/s': fixed(Object.values(t.gc).reduce((a, s) => a + s.totalMs, 0) / t.seconds),
        'pool wait p50/p99/max ms': p
          ? `${fixed(p.waitP50, 2)} / ${fixed(p.waitP99, 2)} / ${fixed(p.waitMax, 2)}`
          : '-',
        'waits > 1 ms': p ? p.waitedOver1ms : '-',
        'max queued': p ? p.maxQueued : '-',
        'new / closed conns': p ? `${p.newConnections} / ${p.removedConnections} (of ${p.totalConnections})` : '-',
        'api cpu µs/req': perRequestUs(t.cpuUserMs + t.cpuSystemMs),
        'queries/req': t.queries ? fixed(t.queries.count / n, 2) : '-',
        'db round trip µs/req': t.queries ? perRequestUs(t.queries.totalMs) : '-',
        'query p99/max ms': t.queries ? `${fixed(t.queries.p99, 2)} / ${fixed(t.queries.max, 2)}` : '-',
        'db exec µs/req': db ? perRequestUs(db.ms) : '-',
      });
    },
    async close() {
      await client?.end();
    },
  };
}
