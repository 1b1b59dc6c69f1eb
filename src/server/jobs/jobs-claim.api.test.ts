import { inArray } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { jobs } from '../db/schema';
import { setupTestApp } from '../test/harness';
import { enqueue } from './index';

/**
 * While jobs run, the worker claims again only once half its slots are free (worker.ts claimAtLeast), so a backlog
 * is claimed a few jobs per statement rather than one per finished job; with nothing running, one job is claimed
 * at once.
 */
describe('claiming jobs', () => {
  const { ctx } = setupTestApp({ JOBS_POLL_MS: '3600000', JOBS_CONCURRENCY: '4' });
  const db = () => ctx.database.db;

  it('claims a backlog two jobs at a time once the first four are running, and runs every job once', async () => {
    const gates = new Map<number, () => void>();
    const started: number[] = [];
    ctx.app.jobs.register('gated', async (payload) => {
      const { n } = payload as { n: number };
      started.push(n);
      await new Promise<void>((resolve) => gates.set(n, resolve));
    });
    // A job run by its NOTIFY alone: the instance's LISTEN connection is up, so its start-up wake-up is behind us.
    ctx.app.jobs.register('warm', async () => {});
    const warm = (await enqueue(db(), { kind: 'warm', payload: {} }))!;
    await vi.waitFor(async () => {
      const [row] = await db()
        .select({ status: jobs.status })
        .from(jobs)
        .where(inArray(jobs.id, [warm]));
      expect(row?.status).toBe('sent');
    });
    // Queued in one transaction: its one NOTIFY at commit wakes the worker with all eight due.
    const before = ctx.app.jobs.stats();
    const ids = await db().transaction(async (tx) => {
      const queued: number[] = [];
      for (let n = 1; n <= 8; n++) queued.push((await enqueue(tx, { kind: 'gated', payload: { n } }))!);
      return queued;
    });
    const drained = ctx.app.jobs.runDue();

    const sent = async (count: number) =>
      vi.waitFor(async () => {
        const rows = await db().select({ status: jobs.status }).from(jobs).where(inArray(jobs.id, ids));
        expect(rows.filter((r) => r.status === 'sent')).toHaveLength(count);
      });
    await vi.waitFor(() => expect(started).toHaveLength(4));
    // One job ends at a time, each only once the one before is marked sent: a worker that claimed as soon as one
    // slot freed would claim one job each time.
    for (let n = 1; n <= 8; n++) {
      await vi.waitFor(() => expect(gates.has(n)).toBe(true));
      gates.get(n)!();
      await sent(n);
    }
    await drained;

    expect([...started].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const after = ctx.app.jobs.stats();
    expect(after.claimed - before.claimed).toBe(8);
    // 4, then 2 and 2 (one slot free is not enough while three run).
    expect(after.claims - before.claims).toBe(3);
    // And no claim after each job that ends once the queue is empty: at most the last empty claim of each of the two
    // drains (the NOTIFY's and this runDue's); claiming on every freed slot took 7.
    expect(after.statements - before.statements).toBeLessThanOrEqual(5);
  });

  it('claims the oldest due jobs first (run_at, then id), never one not yet due or under a live lease', async () => {
    const started: string[] = [];
    const gates: (() => void)[] = [];
    let open = false;
    ctx.app.jobs.register('ordered', async (payload) => {
      started.push((payload as { name: string }).name);
      if (!open) await new Promise<void>((resolve) => gates.push(resolve));
    });
    const now = Date.now();
    const at = (minutes: number) => new Date(now + minutes * 60_000);
    // Inserted directly (no NOTIFY): nothing runs them until runDue. j3, j4 and j5 share a run_at (one
    // transaction's jobs do); j8 is held by another worker's live lease.
    const rows = [
      { name: 'j5', runAt: at(-10) },
      { name: 'j1', runAt: at(-30) },
      { name: 'j3', runAt: at(-10) },
      { name: 'j6', runAt: at(-1) },
      { name: 'j7', runAt: at(60) },
      { name: 'j2', runAt: at(-20) },
      { name: 'j8', runAt: at(-40), lockedUntil: at(5), attempts: 1 },
    ];
    const inserted = await db()
      .insert(jobs)
      .values(rows.map(({ name, ...rest }) => ({ kind: 'ordered', payload: { name }, ...rest })))
      .returning({ id: jobs.id });
    // j4: due at the same time as j5 and j3, with a larger id than both.
    const [j4] = await db()
      .insert(jobs)
      .values({ kind: 'ordered', payload: { name: 'j4' }, runAt: at(-10) })
      .returning({ id: jobs.id });
    expect(j4!.id).toBeGreaterThan(Math.max(...inserted.map((r) => r.id)));

    const drained = ctx.app.jobs.runDue();
    await vi.waitFor(() => expect(started).toHaveLength(4));
    // Four slots: j1 (-30 min), j2 (-20), then the two smallest ids of the three due at -10 min (j5 and j3).
    expect([...started].sort()).toEqual(['j1', 'j2', 'j3', 'j5']);
    open = true;
    gates.forEach((release) => release());
    await drained;
    expect([...started].sort()).toEqual(['j1', 'j2', 'j3', 'j4', 'j5', 'j6']);
  });

  it('claims a single job at once when nothing runs', async () => {
    ctx.app.jobs.register('single', async () => {});
    const before = ctx.app.jobs.stats();
    const id = (await enqueue(db(), { kind: 'single', payload: {} }))!;
    // Its NOTIFY's drain, or this one after it, runs it.
    await ctx.app.jobs.runDue();
    expect(ctx.app.jobs.stats()).toMatchObject({ claims: before.claims + 1, claimed: before.claimed + 1 });
    const [row] = await db()
      .select({ status: jobs.status })
      .from(jobs)
      .where(inArray(jobs.id, [id]));
    expect(row?.status).toBe('sent');
  });
});
