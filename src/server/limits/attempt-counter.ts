import { createHash } from 'node:crypto';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { attemptCounters } from '../db/schema';

/** At most `max` hits per fixed window of `windowMs`. */
export interface WindowLimit {
  max: number;
  windowMs: number;
}

export interface Hit {
  allowed: boolean;
  /** Seconds until the window ends (at least 1): the Retry-After of a refused hit. */
  retryAfterSeconds: number;
  key: string;
  windowStart: Date;
}

const SWEEP_EVERY_MS = 5 * 60_000;

/**
 * The stored key: the scope in clear (for operators), then a SHA-256 of what is counted, so no address or e-mail
 * is written to the table. The fixed prefix keeps these hashes apart from any other SHA-256 of the same text.
 */
export function counterKey(scope: string, subject: string): string {
  const digest = createHash('sha256').update(`ruralroute-attempts\0${scope}\0${subject}`).digest('base64url');
  return `${scope}:${digest}`;
}

/**
 * Attempt counters in PostgreSQL, shared by every app instance on the database. Each hit is ONE statement that
 * inserts the key or increments it (restarting the window once it has ended) and returns the new count, so
 * parallel requests on any number of connections each see a distinct count and exactly `max` of them pass.
 * Time is the database's now(), so instances with skewed clocks agree.
 */
export function createAttemptCounter(db: Db, opts: { sweepEveryMs?: number } = {}) {
  const sweepEveryMs = opts.sweepEveryMs ?? SWEEP_EVERY_MS;
  let lastSweep = Date.now();
  const ended = sql`${attemptCounters.windowEnd} <= now()`;

  /**
   * The counter's one statement, a named prepared statement (every write and sign-in runs it, so it is parsed and
   * planned once per connection and drizzle builds it once per process): inserts the key or adds `adds` to its count
   * (1 for a hit, 0 for a check), restarting the window once it has ended, and returns the count. A check takes the
   * row's lock (or waits for the pending insert of the same key) exactly as a hit does, so it sees every hit ordered
   * before it.
   */
  const upsert = (adds: 0 | 1, name: string) =>
    db
      .insert(attemptCounters)
      .values({
        key: sql.placeholder('key'),
        hits: adds,
        windowStart: sql`now()`,
        windowEnd: sql`now() + ${sql.placeholder('windowMs')}::float8 * interval '1 millisecond'`,
      })
      .onConflictDoUpdate({
        target: attemptCounters.key,
        set: {
          // Saturates instead of overflowing integer under an endless flood on one key in a long window.
          // excluded.hits is this statement's `adds`.
          hits: sql`case when ${ended} then excluded.hits else least(${attemptCounters.hits}, 2147483646) + excluded.hits end`,
          windowStart: sql`case when ${ended} then excluded.window_start else ${attemptCounters.windowStart} end`,
          windowEnd: sql`case when ${ended} then excluded.window_end else ${attemptCounters.windowEnd} end`,
        },
      })
      .returning({
        hits: attemptCounters.hits,
        windowStart: attemptCounters.windowStart,
        // The clock now, not the transaction's start: a statement that waited on the row while another set the window
        // started before that window's start, and would wait 901 s of a 900 s window ('16 minutes'; seen in CI).
        retryAfterSeconds: sql<number>`greatest(1, ceil(extract(epoch from ${attemptCounters.windowEnd} - clock_timestamp())))::int`,
      })
      .prepare(name);
  const statements = { hit: upsert(1, 'attempt_counter_hit'), check: upsert(0, 'attempt_counter_check') };

  async function count(kind: keyof typeof statements, scope: string, subject: string, limit: WindowLimit) {
    maybeSweep();
    const key = counterKey(scope, subject);
    const [row] = await statements[kind].execute({ key, windowMs: limit.windowMs });
    if (!row) throw new Error(`attempt counter ${kind} returned no row`);
    // A check's own try is not in the count: it passes when one more would still be within `max`.
    const tries = row.hits + (kind === 'check' ? 1 : 0);
    return {
      allowed: tries <= limit.max,
      retryAfterSeconds: Number(row.retryAfterSeconds),
      key,
      windowStart: row.windowStart,
    };
  }

  /** Counts one try of `subject` in `scope`; `allowed` while the window's count is at most `limit.max`. */
  const hit = (scope: string, subject: string, limit: WindowLimit): Promise<Hit> => count('hit', scope, subject, limit);

  /**
   * Whether one more hit would pass, without counting it: a hit then its release in one statement instead of two
   * (a delivery code known to be right, which gives its try back). `allowed` exactly when hit() would have allowed it.
   */
  const check = (scope: string, subject: string, limit: WindowLimit): Promise<Hit> =>
    count('check', scope, subject, limit);

  /** Gives one hit back, in the same window only (a window restarted since then is left alone). */
  async function release(h: Hit): Promise<void> {
    await db
      .update(attemptCounters)
      .set({ hits: sql`${attemptCounters.hits} - 1` })
      .where(
        and(
          eq(attemptCounters.key, h.key),
          eq(attemptCounters.windowStart, h.windowStart),
          gt(attemptCounters.hits, 0),
        ),
      );
  }

  /** Forgets a key altogether (e.g. failures from an address whose owner has now signed in). */
  async function clear(scope: string, subject: string): Promise<void> {
    await db.delete(attemptCounters).where(eq(attemptCounters.key, counterKey(scope, subject)));
  }

  /** Deletes every counter whose window has ended (the index on window_end keeps this a range scan). */
  async function sweep(): Promise<void> {
    await db.delete(attemptCounters).where(lt(attemptCounters.windowEnd, sql`now()`));
  }

  /**
   * Ended windows are deleted on the fly, at most once per interval per instance and off the request path, so the
   * table holds roughly the keys active in the longest window and needs no scheduler.
   */
  function maybeSweep(): void {
    const now = Date.now();
    if (now - lastSweep < sweepEveryMs) return;
    lastSweep = now;
    sweep().catch((err: unknown) => console.warn('[limits] sweeping attempt counters failed:', err));
  }

  return { hit, check, release, clear, sweep };
}

export type AttemptCounter = ReturnType<typeof createAttemptCounter>;
