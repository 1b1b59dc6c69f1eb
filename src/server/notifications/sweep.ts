import { sql, type SQL } from 'drizzle-orm';
import { NOTIFICATION_RETENTION_DAYS } from '../../shared/notifications';
import { periodic } from '../core/periodic';
import type { Db } from '../db/client';
import { rowsOf } from '../db/result-rows';
import { jobs, notifications } from '../db/schema';

const DAY_MS = 24 * 3_600_000;
/** Finished jobs are kept this long for looking into what was sent (or why it failed), then deleted. */
export const SENT_JOB_RETENTION_DAYS = 7;
export const FAILED_JOB_RETENTION_DAYS = 30;
/** Rows deleted per statement: a long backlog is cleared in short transactions. */
export const SWEEP_BATCH = 5000;
/** How often each instance sweeps. */
export const NOTIFICATION_SWEEP_MS = 3_600_000;

export interface SweepResult {
  notifications: number;
  sentJobs: number;
  failedJobs: number;
}

/**
 * The cleanup of notifications and jobs: read notifications older than NOTIFICATION_RETENTION_DAYS (unread ones
 * stay until read), sent jobs after SENT_JOB_RETENTION_DAYS and failed ones after FAILED_JOB_RETENTION_DAYS, by
 * `clock`. Every instance may run it at once: each batch takes its rows FOR UPDATE SKIP LOCKED, so two sweeps
 * split the work instead of waiting on each other, and a row is deleted once.
 */
export function createNotificationSweep(db: Db, clock: () => Date) {
  /** Deletes the rows `pick` selects (ids, at most SWEEP_BATCH, locked) from `table` until none is left. */
  async function deleteAll(table: typeof notifications | typeof jobs, pick: SQL): Promise<number> {
    let total = 0;
    for (;;) {
      const result = await db.execute(sql`
        with gone as (delete from ${table} where id in (${pick}) returning 1)
        select count(*)::int as n from gone`);
      const n = Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0);
      total += n;
      if (n < SWEEP_BATCH) return total;
    }
  }

  const before = (days: number) => new Date(clock().getTime() - days * DAY_MS).toISOString();

  async function sweep(): Promise<SweepResult> {
    const oldRead = sql`select id from ${notifications}
      where ${notifications.readAt} < ${before(NOTIFICATION_RETENTION_DAYS)}::timestamptz
      limit ${SWEEP_BATCH} for update skip locked`;
    const finished = (status: 'sent' | 'failed', days: number) => sql`select id from ${jobs}
      where ${jobs.status} = ${sql.raw(`'${status}'`)} and ${jobs.finishedAt} < ${before(days)}::timestamptz
      limit ${SWEEP_BATCH} for update skip locked`;
    return {
      notifications: await deleteAll(notifications, oldRead),
      sentJobs: await deleteAll(jobs, finished('sent', SENT_JOB_RETENTION_DAYS)),
      failedJobs: await deleteAll(jobs, finished('failed', FAILED_JOB_RETENTION_DAYS)),
    };
  }

  const task = periodic('notifications', sweep, NOTIFICATION_SWEEP_MS);
  return {
    /** Runs the sweep now, after the run in progress (runs of one instance never overlap). */
    sweep: task.run,
    /** Stops the timer and waits for the run in progress. */
    close: task.close,
  };
}

export type NotificationSweep = ReturnType<typeof createNotificationSweep>;
