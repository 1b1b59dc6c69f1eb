import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { jobs } from '../db/schema';
import { setupTestApp } from '../test/harness';
import { enqueue, MAX_ATTEMPTS } from './index';

const MINUTE = 60_000;
let shift = 0;
const clock = () => new Date(Date.now() + shift);
afterEach(() => {
  shift = 0;
});

/** Each 'wait' job is deferred 10 minutes (from the worker's clock) `defers` times, then done. */
const runs = new Map<number, number>();
let defers = 0;

describe('a handler that defers its job', () => {
  const { ctx } = setupTestApp({ JOBS_POLL_MS: '3600000' }, { clock });
  const jobOf = async (id: number) => (await ctx.database.db.select().from(jobs).where(eq(jobs.id, id)))[0]!;

  it('goes back to the queue until deferUntil, its attempt not counted, and runs then', async () => {
    ctx.app.jobs.register('wait', async (_payload, job) => {
      const n = (runs.get(job.id) ?? 0) + 1;
      runs.set(job.id, n);
      if (n <= defers) return { deferUntil: new Date(clock().getTime() + 10 * MINUTE) };
    });
    defers = MAX_ATTEMPTS + 2;
    const id = (await enqueue(ctx.database.db, { kind: 'wait', payload: {} }))!;

    await ctx.app.jobs.runDue();
    let job = await jobOf(id);
    expect(job).toMatchObject({ status: 'queued', attempts: 0, lockedUntil: null, lastError: null });
    const wait = job.runAt.getTime() - Date.now();
    expect(wait).toBeGreaterThan(9 * MINUTE);
    expect(wait).toBeLessThanOrEqual(10 * MINUTE);
    // Not due before then.
    shift = 5 * MINUTE;
    expect(await ctx.app.jobs.runDue()).toBe(0);
    expect(runs.get(id)).toBe(1);

    // Deferred more often than MAX_ATTEMPTS: never failed, since no attempt was used up.
    for (let i = 2; i <= defers; i++) {
      shift = i * 11 * MINUTE;
      expect(await ctx.app.jobs.runDue()).toBe(1);
      job = await jobOf(id);
      expect(job).toMatchObject({ status: 'queued', attempts: 0 });
    }
    shift = (defers + 1) * 11 * MINUTE;
    await ctx.app.jobs.runDue();
    job = await jobOf(id);
    expect(job).toMatchObject({ status: 'sent', attempts: 1, lockedUntil: null });
    expect(runs.get(id)).toBe(defers + 1);
  });

  it('a retry after a failure keeps its count when deferred (only the deferring attempt is given back)', async () => {
    let calls = 0;
    ctx.app.jobs.register('fail-then-wait', async () => {
      calls += 1;
      if (calls === 1) throw new Error('mail server down');
      if (calls === 2) return { deferUntil: new Date(clock().getTime() + MINUTE) };
    });
    const id = (await enqueue(ctx.database.db, { kind: 'fail-then-wait', payload: {} }))!;
    await ctx.app.jobs.runDue();
    expect(await jobOf(id)).toMatchObject({ status: 'queued', attempts: 1, lastError: 'mail server down' });
    shift = 2 * MINUTE;
    await ctx.app.jobs.runDue();
    expect(await jobOf(id)).toMatchObject({ status: 'queued', attempts: 1, lockedUntil: null });
    shift = 4 * MINUTE;
    await ctx.app.jobs.runDue();
    expect(await jobOf(id)).toMatchObject({ status: 'sent', attempts: 2 });
    expect(calls).toBe(3);
  });
});
