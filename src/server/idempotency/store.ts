import { sql } from 'drizzle-orm';
import { IDEMPOTENCY_TTL_HOURS } from '../../shared/idempotency';
import type { Db } from '../db/client';
import { rowsOf } from '../db/result-rows';
import { preparedStatement } from '../db/prepared';

const HOUR_MS = 3_600_000;
/**
 * A request that claimed its key and then vanished (its instance died mid-request) leaves a row without an answer.
 * After this long a repeat may claim the key again; no write runs this long (requests time out at 15 s).
 */
export const CLAIM_LEASE_MS = 60_000;
/** Rows the sweep deletes per statement. */
const SWEEP_BATCH = 1_000;

/** An answer kept for a key. */
export interface StoredAnswer {
  status: number;
  contentType: string | null;
  body: string;
  /** The route was sensitive: a repeat runs its identity check before this answer is sent. */
  recheck?: boolean;
}

/** What a request finds for its key: it may run (`claimed`), or gets the kept answer, or must wait, or is refused. */
export type Claim =
  { kind: 'claimed' } | { kind: 'answer'; answer: StoredAnswer } | { kind: 'in_progress' } | { kind: 'reused' };

interface KeyRow {
  fingerprint: string;
  status: number | null;
  content_type: string | null;
  body: string | null;
  recheck: boolean;
}

// Every write a client sends carries a key: claim and keep run on each one, prepared once per connection.
const claimStatement = preparedStatement(
  'idempotency_claim',
  () => sql`
    insert into idempotency_keys (user_id, key, fingerprint, created_at)
    values (${sql.placeholder('userId')}, ${sql.placeholder('key')}, ${sql.placeholder('fingerprint')}, ${sql.placeholder('now')}::timestamptz)
    on conflict (user_id, key) do update
      set fingerprint = excluded.fingerprint, created_at = excluded.created_at,
          status = null, content_type = null, body = null, recheck = false
      where idempotency_keys.created_at < ${sql.placeholder('expired')}::timestamptz
         or (idempotency_keys.status is null and idempotency_keys.fingerprint = excluded.fingerprint
             and idempotency_keys.created_at < ${sql.placeholder('lapsed')}::timestamptz)
    returning 1 as claimed`,
);
const keepStatement = preparedStatement(
  'idempotency_keep',
  () => sql`
    update idempotency_keys set status = ${sql.placeholder('status')}, content_type = ${sql.placeholder('contentType')}, body = ${sql.placeholder('body')}, recheck = ${sql.placeholder('recheck')}
    where user_id = ${sql.placeholder('userId')} and key = ${sql.placeholder('key')} and fingerprint = ${sql.placeholder('fingerprint')} and status is null`,
);

/** The keys table (schema.ts idempotencyKeys) as the middleware uses it; `clock` dates every row and expiry. */
export function createIdempotencyStore(db: Db, clock: () => Date) {
  const ago = (ms: number) => new Date(clock().getTime() - ms).toISOString();

  /**
   * Claims (user, key) for a request with this fingerprint: a new row, or one that expired, or a claim whose
   * request vanished with the same fingerprint, is taken over in one statement (the primary key decides between
   * instances racing for it). Otherwise the row tells what to answer.
   */
  async function claim(userId: string, key: string, fingerprint: string): Promise<Claim> {
    const taken = await claimStatement(db, {
      userId,
      key,
      fingerprint,
      now: clock().toISOString(),
      expired: ago(IDEMPOTENCY_TTL_HOURS * HOUR_MS),
      lapsed: ago(CLAIM_LEASE_MS),
    });
    if (rowsOf(taken).length) return { kind: 'claimed' };
    const [row] = rowsOf<KeyRow>(
      await db.execute(sql`
        select fingerprint, status, content_type, body, recheck from idempotency_keys
        where user_id = ${userId} and key = ${key}`),
    );
    // Gone between the two statements (the sweep, or a released claim): the caller tries again.
    if (!row) return { kind: 'in_progress' };
    if (row.fingerprint !== fingerprint) return { kind: 'reused' };
    if (row.status === null) return { kind: 'in_progress' };
    return {
      kind: 'answer',
      answer: { status: row.status, contentType: row.content_type, body: row.body ?? '', recheck: row.recheck },
    };
  }

  /** Keeps the answer of the request that holds the claim. */
  async function keep(userId: string, key: string, fingerprint: string, answer: StoredAnswer): Promise<void> {
    await keepStatement(db, { userId, key, fingerprint, ...answer, recheck: answer.recheck ?? false });
  }

  /** Gives the claim up (an answer not worth keeping): the next request with the key runs. */
  async function release(userId: string, key: string, fingerprint: string): Promise<void> {
    await db.execute(sql`
      delete from idempotency_keys
      where user_id = ${userId} and key = ${key} and fingerprint = ${fingerprint} and status is null`);
  }

  /** Deletes the expired rows, oldest first, in batches that skip rows another instance is deleting. */
  async function sweep(): Promise<number> {
    let total = 0;
    for (;;) {
      const result = await db.execute(sql`
        with gone as (
          delete from idempotency_keys where (user_id, key) in (
            select user_id, key from idempotency_keys
            where created_at < ${ago(IDEMPOTENCY_TTL_HOURS * HOUR_MS)}::timestamptz
            order by created_at limit ${SWEEP_BATCH} for update skip locked)
          returning 1)
        select count(*)::int as n from gone`);
      const n = Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0);
      total += n;
      if (n < SWEEP_BATCH) return total;
    }
  }

  return { claim, keep, release, sweep };
}

export type IdempotencyStore = ReturnType<typeof createIdempotencyStore>;
