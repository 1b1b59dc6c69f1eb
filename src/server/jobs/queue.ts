import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { pgNotify } from '../db/notify';
import { jobs } from '../db/schema';

/** The NOTIFY channel that wakes every instance's worker when a job is committed (payload: empty). */
export const JOBS_CHANNEL = 'rr_jobs';

export interface NewJob {
  kind: string;
  payload: unknown;
  /** When it is first due; now by default (the database's clock). */
  runAt?: Date;
  /** A second job with the same key is not added (enqueue then returns null). */
  dedupeKey?: string;
}

/**
 * Adds a job inside the caller's transaction `tx`, so it exists exactly when what caused it does. The worker of
 * every instance is woken when `tx` commits (a NOTIFY, delivered only after commit); the poll timer is the
 * fallback. Returns the job's id, or null when `dedupeKey` was already used.
 */
export async function enqueue(tx: Db, job: NewJob): Promise<number | null> {
  const [row] = await tx
    .insert(jobs)
    .values({
      kind: job.kind,
      payload: job.payload,
      ...(job.runAt ? { runAt: job.runAt } : {}),
      dedupeKey: job.dedupeKey ?? null,
    })
    .onConflictDoNothing({ target: jobs.dedupeKey })
    .returning({ id: jobs.id });
  if (!row) return null;
  // Notifications with the same payload in one transaction are folded into one: a batch wakes a worker once.
  await tx.execute(sql`select ${pgNotify(JOBS_CHANNEL, '')}`);
  return row.id;
}

/**
 * Empties a job's payload once its handler no longer needs it (a mail to an address that must not stay stored:
 * account deletion, password reset). Its retries then find `{}` and know the work was done.
 */
export async function forgetPayload(db: Db, jobId: number): Promise<void> {
  await db.update(jobs).set({ payload: {} }).where(eq(jobs.id, jobId));
}

/** Whether `forgetPayload` has emptied this payload (the handler ran to its end before). */
export const payloadForgotten = (payload: unknown): boolean =>
  typeof payload === 'object' && payload !== null && !Array.isArray(payload) && Object.keys(payload).length === 0;
