import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client';
import { rowsOf } from '../db/result-rows';
import { createTestDatabase } from '../test/database';

/**
 * The claim (rr_jobs_claim) must cost the same whatever the number of finished jobs kept in the table (sent ones stay
 * 7 days): it finds the due jobs by jobs_due_idx and updates them by their key. Its plan is the generic one (a
 * function's statement is prepared once per connection, and its LIMIT is a parameter); with migration 0043's
 * `id IN (subquery)` that plan was a hash semi join over a Seq Scan of every row of jobs (2 ms a claim at 10,000
 * rows, in bench:api's choose at 100 req/s). The scans are counted by pg_stat_xact_user_tables (this connection's
 * counts not yet reported, so no other connection's and no statistics delay), before and after the claims.
 */
const FINISHED = 6_000;
const BACKLOG = 2_000;

let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.execute(sql`
    insert into jobs (kind, payload, status, attempts, run_at, finished_at)
    select 'finished', '{}'::jsonb, 'sent', 1, now() - interval '1 day', now() - interval '1 day'
    from generate_series(1, ${FINISHED})`);
  // Analysed during a backlog (as autovacuum may well do): the planner expects many due jobs, so many claimed ones.
  await database.db.execute(sql`
    insert into jobs (kind, payload, run_at) select 'backlog', '{}'::jsonb, now() - interval '1 hour'
    from generate_series(1, ${BACKLOG})`);
  await database.db.execute(sql`analyze jobs`);
  await database.db.execute(
    sql`update jobs set status = 'sent', attempts = 1, finished_at = now() where kind = 'backlog'`,
  );
});

afterAll(async () => {
  await database?.close();
});

describe('the job claim', () => {
  it('reads jobs by index only, with its generic plan, beside thousands of finished jobs', async () => {
    const now = new Date();
    const until = new Date(now.getTime() + 60_000).toISOString();
    const { claimed, scans } = await database.db.transaction(async (tx) => {
      const scanned = async () =>
        rowsOf<{ seq: number; idx: number }>(
          await tx.execute(sql`select coalesce(seq_scan, 0)::int as seq, coalesce(idx_scan, 0)::int as idx
            from pg_stat_xact_user_tables where relname = 'jobs'`),
        )[0] ?? { seq: 0, idx: 0 };
      await tx.execute(sql`set local plan_cache_mode = force_generic_plan`);
      await tx.execute(sql`
        insert into jobs (kind, payload, run_at) select 'due', jsonb_build_object('n', g), now() - interval '1 minute'
        from generate_series(1, 12) g`);
      const before = await scanned();
      const claimed: number[] = [];
      for (let i = 0; i < 6; i++) {
        const rows = rowsOf<{ id: number }>(
          await tx.execute(sql`select id::float8 as id from rr_jobs_claim(${now.toISOString()}::timestamptz,
            ${until}::timestamptz, 2)`),
        );
        claimed.push(...rows.map((r) => Number(r.id)));
      }
      const after = await scanned();
      return { claimed, scans: { seq: after.seq - before.seq, idx: after.idx - before.idx } };
    });
    // Every due job once, two per claim.
    expect(claimed).toHaveLength(12);
    expect(new Set(claimed).size).toBe(12);
    expect(scans.idx).toBeGreaterThan(0);
    expect(scans.seq).toBe(0);
  });
});
