import { createHash } from 'node:crypto';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { preparedStatement } from '../db/prepared';
import { rowsOf } from '../db/result-rows';
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

/** One hit as rr_count_hits takes it (migration 0044): `adds` is 1 for a hit, 0 for a check. */
export interface HitArgument {
  key: string;
  window_ms: number;
  max: number;
  adds: 0 | 1;
}

/**
 * What rr_count_hits answers: the index of the first hit over its allowance (the ones after it are not counted) or
 * null, and that hit's window (or the last hit's when none is over).
 */
export interface CountAnswer {
  refused: number | null;
  retry_after?: number;
  window_start?: string;
}

/**
 * The counter's one statement, the database function that is also called inside the writes that fold their hits
 * into their own statement (one copy of the upsert). A named prepared statement: every sign-in and every write that
 * does not fold its hits runs it, so it is parsed and planned once per connection.
 */
const countStatement = preparedStatement(
  'attempt_counter_count',
  () => sql`select rr_count_hits(${sql.placeholder('hits')}::jsonb) as counted`,
);

/**
 * The stored key: the scope in clear (for operators), then a SHA-256 of what is counted, so no address or e-mail
 * is written to the table. The fixed prefix keeps these hashes apart from any other SHA-256 of the same text.
 */
export function counterKey(scope: string, subject: string): string {
  const digest = createHash('sha256').update(`ruralroute-attempts\0${scope}\0${subject}`).digest('base64url');
  return `${scope}:${digest}`;
}

/**
 * Attempt counters in PostgreSQL, shared by every app instance on the database. Each hit is ONE statement
 * (rr_count_hits) that inserts the key or increments it (restarting the window once it has ended) under the row's
 * lock, so parallel requests on any number of connections each see a distinct count and exactly `max` of them pass.
 * Time is the database's now(), so instances with skewed clocks agree.
 */
export function createAttemptCounter(db: Db, opts: { sweepEveryMs?: number } = {}) {
  const sweepEveryMs = opts.sweepEveryMs ?? SWEEP_EVERY_MS;
  let lastSweep = Date.now();

  async function count(kind: 'hit' | 'check', scope: string, subject: string, limit: WindowLimit): Promise<Hit> {
    const argument = hitArgument(scope, subject, limit, kind === 'hit' ? 1 : 0);
    const [row] = rowsOf<{ counted: CountAnswer }>(await countStatement(db, { hits: JSON.stringify([argument]) }));
    const counted = row?.counted;
    if (!counted?.window_start) throw new Error(`attempt counter ${kind} returned no row`);
    return {
      allowed: counted.refused === null,
      retryAfterSeconds: Number(counted.retry_after),
      key: argument.key,
      windowStart: new Date(counted.window_start),
    };
  }

  /**
   * A hit as rr_count_hits takes it, for a write that counts its hits inside its own statement (enforce.ts
   * `foldLimits`) instead of a round trip before it.
   */
  function hitArgument(scope: string, subject: string, limit: WindowLimit, adds: 0 | 1 = 1): HitArgument {
    maybeSweep();
    return { key: counterKey(scope, subject), window_ms: limit.windowMs, max: limit.max, adds };
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

  return { hit, check, release, clear, sweep, hitArgument };
}

export type AttemptCounter = ReturnType<typeof createAttemptCounter>;
