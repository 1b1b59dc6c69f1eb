import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client';
import { attemptCounters } from '../db/schema';
import { createTestDatabase } from '../test/database';
import { until } from '../test/wait';
import { counterKey, createAttemptCounter, type AttemptCounter } from './attempt-counter';

let database: Database;
let counter: AttemptCounter;
const limit = { max: 5, windowMs: 60_000 };

beforeAll(async () => {
  database = await createTestDatabase();
  counter = createAttemptCounter(database.db);
});
afterAll(async () => {
  await database?.close();
});

async function rowFor(scope: string, subject: string) {
  const [row] = await database.db
    .select()
    .from(attemptCounters)
    .where(eq(attemptCounters.key, counterKey(scope, subject)));
  return row;
}

/** Moves a key's window into the past, as if its time had run out. */
async function endWindow(scope: string, subject: string) {
  await database.db
    .update(attemptCounters)
    .set({ windowStart: sql`now() - interval '2 minutes'`, windowEnd: sql`now() - interval '1 minute'` })
    .where(eq(attemptCounters.key, counterKey(scope, subject)));
}

describe('attempt counter', () => {
  it('allows max hits per window, then refuses with the seconds left in the window', async () => {
    const results = [];
    for (let i = 0; i < 7; i++) results.push(await counter.hit('t-seq', 'a', limit));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, true, true, false, false]);
    expect(results[6]!.retryAfterSeconds).toBeGreaterThan(55);
    expect(results[6]!.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect((await counter.hit('t-seq', 'b', limit)).allowed).toBe(true);
    expect((await rowFor('t-seq', 'a'))?.hits).toBe(7);
  });

  it('lets exactly max of 30 parallel hits through (one atomic statement per hit)', async () => {
    const results = await Promise.all(Array.from({ length: 30 }, () => counter.hit('t-par', 'x', limit)));
    expect(results.filter((r) => r.allowed)).toHaveLength(5);
    expect((await rowFor('t-par', 'x'))?.hits).toBe(30);
  });

  it('restarts the window once it has ended', async () => {
    for (let i = 0; i < 6; i++) await counter.hit('t-restart', 'a', limit);
    expect((await counter.hit('t-restart', 'a', limit)).allowed).toBe(false);
    await endWindow('t-restart', 'a');
    const fresh = await counter.hit('t-restart', 'a', limit);
    expect(fresh.allowed).toBe(true);
    expect((await rowFor('t-restart', 'a'))?.hits).toBe(1);
    expect(fresh.windowStart.getTime()).toBeGreaterThan(Date.now() - 30_000);
  });

  it('gives a hit back within its window only, and clears a key', async () => {
    const first = await counter.hit('t-release', 'a', limit);
    await counter.hit('t-release', 'a', limit);
    await counter.release(first);
    expect((await rowFor('t-release', 'a'))?.hits).toBe(1);
    await endWindow('t-release', 'a');
    const restarted = await counter.hit('t-release', 'a', limit);
    await counter.release(first); // from the old window: no effect
    expect((await rowFor('t-release', 'a'))?.hits).toBe(1);
    await counter.release(restarted);
    expect((await rowFor('t-release', 'a'))?.hits).toBe(0);
    await counter.clear('t-release', 'a');
    expect(await rowFor('t-release', 'a')).toBeUndefined();
  });

  it('checks whether one more hit would pass without counting it, in an ended window too', async () => {
    expect(await counter.check('t-check', 'a', limit)).toMatchObject({ allowed: true });
    expect((await rowFor('t-check', 'a'))?.hits).toBe(0);
    for (let i = 0; i < 4; i++) await counter.hit('t-check', 'a', limit);
    expect((await counter.check('t-check', 'a', limit)).allowed).toBe(true);
    await counter.hit('t-check', 'a', limit);
    const locked = await counter.check('t-check', 'a', limit);
    expect(locked.allowed).toBe(false);
    expect(locked.retryAfterSeconds).toBeGreaterThan(55);
    expect((await rowFor('t-check', 'a'))?.hits).toBe(5);
    await endWindow('t-check', 'a');
    expect((await counter.check('t-check', 'a', limit)).allowed).toBe(true);
    expect((await rowFor('t-check', 'a'))?.hits).toBe(0);
    expect((await counter.hit('t-check', 'a', limit)).allowed).toBe(true);
  });

  it('checks among parallel hits count nothing: exactly max of the hits pass, and the key holds the hits only', async () => {
    const tries = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 4 === 0 ? counter.check('t-check-par', 'x', limit) : counter.hit('t-check-par', 'x', limit),
      ),
    );
    const hits = tries.filter((_, i) => i % 4 !== 0);
    expect(hits.filter((r) => r.allowed)).toHaveLength(5);
    expect((await rowFor('t-check-par', 'x'))?.hits).toBe(15);
    expect((await counter.check('t-check-par', 'x', limit)).allowed).toBe(false);
  });

  it('sweeps ended windows and keeps live ones', async () => {
    await counter.hit('t-sweep', 'old', limit);
    await counter.hit('t-sweep', 'live', limit);
    await endWindow('t-sweep', 'old');
    await counter.sweep();
    expect(await rowFor('t-sweep', 'old')).toBeUndefined();
    expect(await rowFor('t-sweep', 'live')).toBeDefined();
  });

  it('sweeps on the fly once the interval has passed', async () => {
    const eager = createAttemptCounter(database.db, { sweepEveryMs: 0 });
    await eager.hit('t-fly', 'old', limit);
    await endWindow('t-fly', 'old');
    await eager.hit('t-fly', 'other', limit);
    await expect.poll(() => rowFor('t-fly', 'old')).toBeUndefined();
  });

  it('stores no address or e-mail in clear', async () => {
    await counter.hit('t-privacy', '203.0.113.9|someone@example.com', limit);
    const rows = await database.db.select({ key: attemptCounters.key }).from(attemptCounters);
    const keys = rows.map((r) => r.key).join('\n');
    expect(keys).toContain('t-privacy:');
    expect(keys).not.toMatch(/203\.0\.113|someone|example\.com/);
  });
});

// Real PostgreSQL: a check waits for a hit in flight on its key (another instance's, its transaction not yet
// committed) and answers with that hit counted, as a hit of its own would.
describe.skipIf(!process.env.DATABASE_URL)('a check while a hit is in flight (real PostgreSQL)', () => {
  it('waits for the fifth hit, then is refused', async () => {
    for (let i = 0; i < 4; i++) await counter.hit('t-check-wait', 'x', limit);
    const other = new pg.Client({ connectionString: (database as Database & { url?: string }).url });
    await other.connect();
    try {
      await other.query('begin');
      await other.query(`update attempt_counters set hits = hits + 1 where key = $1`, [
        counterKey('t-check-wait', 'x'),
      ]);
      let settled = false;
      const checked = counter.check('t-check-wait', 'x', limit).finally(() => (settled = true));
      await until('the check to wait for the row', async () => {
        const { rows } = await other.query<{ n: number }>(
          `select count(*)::int as n from pg_locks where not granted and locktype = 'transactionid'`,
        );
        return rows[0]!.n > 0;
      });
      expect(settled).toBe(false);
      await other.query('commit');
      expect((await checked).allowed).toBe(false);
    } finally {
      await other.end();
    }
  });
});
