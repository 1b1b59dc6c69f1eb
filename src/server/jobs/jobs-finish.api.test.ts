import { eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { jobs } from '../db/schema';
import { setupTestApp } from '../test/harness';
import { enqueue } from './index';

/**
 * Jobs whose handlers end in the same turn of the event loop are marked sent by one statement (worker.ts markSent):
 * each still gets its own finish time, and each mark is still fenced by the claim's attempt, so a claim that ran
 * out and was taken over is not marked by the old one.
 */
describe('finishing jobs together', () => {
  const { ctx } = setupTestApp({ JOBS_POLL_MS: '3600000', JOBS_CONCURRENCY: '4' });
  const db = () => ctx.database.db;

  it('marks every job that ended together sent, each with its time, and none whose claim was taken over', async () => {
    // Handlers that end at once (claimed together, nothing to wait for); the third finds its claim taken over
    // meanwhile (another worker's claim after the lease ran out: its attempt moved on) and ends after the others.
    let taken = 0;
    ctx.app.jobs.register('together', async (payload, job) => {
      if ((payload as { n: number }).n === 3) {
        taken = job.id;
        await db()
          .update(jobs)
          .set({ attempts: sql`${jobs.attempts} + 1` })
          .where(eq(jobs.id, job.id));
      }
    });
    const ids: number[] = [];
    for (let n = 1; n <= 4; n++) ids.push((await enqueue(db(), { kind: 'together', payload: { n } }))!);
    const before = Date.now();

    // The first enqueue's NOTIFY may have started a drain already: this one runs after it, and what is left.
    await ctx.app.jobs.runDue();

    const rows = await db().select().from(jobs).where(inArray(jobs.id, ids));
    expect(rows).toHaveLength(4);
    for (const row of rows) {
      if (row.id === taken) {
        // Its new claim's outcome is not overwritten: still queued under the newer attempt, not marked.
        expect(row).toMatchObject({ status: 'queued', attempts: 2, finishedAt: null });
      } else {
        expect(row).toMatchObject({ status: 'sent', attempts: 1, lockedUntil: null, lastError: null });
        expect(row.finishedAt!.getTime()).toBeGreaterThanOrEqual(before - 1000);
        expect(row.finishedAt!.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
      }
    }
    expect(taken).not.toBe(0);
  });

  it('marks a job that ends alone, as before', async () => {
    ctx.app.jobs.register('alone', async () => {});
    const id = (await enqueue(db(), { kind: 'alone', payload: {} }))!;
    await ctx.app.jobs.runDue();
    const [row] = await db().select().from(jobs).where(eq(jobs.id, id));
    expect(row).toMatchObject({ status: 'sent', attempts: 1, lockedUntil: null });
    expect(row!.finishedAt).toBeInstanceOf(Date);
  });
});
