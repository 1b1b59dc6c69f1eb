import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

// ─── Background jobs (e-mail today; alerts and cleanups later) ───────────────────────────────────────────────────
/**
 * Durable jobs (src/server/jobs, docs/decisions/020-jobs-and-mail.md): enqueued in the transaction of what causes
 * them, claimed with FOR UPDATE SKIP LOCKED under a lease (`locked_until`), run outside any transaction, then
 * marked sent or retried with backoff (`run_at`) until `attempts` reaches the limit, when they stay 'failed' with
 * their last error. A job whose lease ran out (its process died) is claimable again: delivery is at-least-once.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind').notNull(),
    payload: jsonb('payload').notNull(),
    status: text('status').notNull().default('queued'),
    /** Attempts started so far (a claim counts one, even if its process dies before it ends). */
    attempts: integer('attempts').notNull().default(0),
    /** When the job is due (its next attempt). */
    runAt: timestamp('run_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    /** The claim's lease: while it is in the future, the job belongs to the worker that claimed it. */
    lockedUntil: timestamp('locked_until', { withTimezone: true, precision: 3 }),
    lastError: text('last_error'),
    /** Optional: a second enqueue with the same key adds nothing (e.g. one mail per event). */
    dedupeKey: text('dedupe_key'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [
    // The claim (rr_jobs_claim, migration 0043): due queued jobs walked in its own (run_at, id) order, so it stops at
    // its LIMIT instead of reading and sorting every due job.
    index('jobs_due_idx')
      .on(t.runAt, t.id)
      .where(sql`${t.status} = 'queued'`),
    uniqueIndex('jobs_dedupe_key_idx').on(t.dedupeKey),
    // The sweep of finished jobs (notifications/sweep.ts): sent ones after 7 days, failed ones after 30.
    index('jobs_finished_idx')
      .on(t.status, t.finishedAt)
      .where(sql`${t.finishedAt} is not null`),
    check('jobs_status_check', sql`${t.status} in ('queued', 'sent', 'failed')`),
    check('jobs_attempts_check', sql`${t.attempts} >= 0`),
  ],
);
