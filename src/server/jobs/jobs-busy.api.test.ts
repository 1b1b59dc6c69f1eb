import { inArray } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { jobs } from '../db/schema';
import { setupTestApp } from '../test/harness';
import { createJobWorker, enqueue } from './index';

/**
 * While requests wait for a database connection (the app's `busy`: its pool has waiters), the worker runs one job at
 * a time instead of JOBS_CONCURRENCY, so the e-mails a burst of writes queues do not take the cores and connections
 * the writes are waiting for; they are sent as the burst passes (docs/decisions/042-jobs-yield-to-requests.md).
 */
describe('a busy instance runs one job at a time', () => {
  const { ctx } = setupTestApp({ JOBS_POLL_MS: '3600000', JOBS_CONCURRENCY: '4' });

  it('claims one job while busy, and the rest at once when no longer busy', async () => {
    const db = ctx.database.db;
    // Due an hour from now: the app's own worker leaves them; this one's clock is two hours ahead.
    const later = new Date(Date.now() + 3_600_000);
    const ids = await db.transaction(async (tx) => {
      const queued: number[] = [];
      for (let n = 1; n <= 4; n++)
        queued.push((await enqueue(tx, { kind: 'busy-gated', payload: { n }, runAt: later }))!);
      return queued;
    });
    let busy = true;
    const worker = createJobWorker(db, undefined, {
      clock: () => new Date(Date.now() + 7_200_000),
      pollMs: 0,
      concurrency: 4,
      leaseMs: 600_000,
      busy: () => busy,
    });
    const started: number[] = [];
    const gates = new Map<number, () => void>();
    worker.register('busy-gated', async (payload) => {
      const { n } = payload as { n: number };
      started.push(n);
      await new Promise<void>((resolve) => gates.set(n, resolve));
    });
    try {
      const drained = worker.runDue();
      await vi.waitFor(() => expect(gates.size).toBe(1));
      expect(started).toHaveLength(1);
      // The first ends while still busy: exactly one more starts (the drain then waits for it, claiming nothing).
      gates.get(started[0]!)!();
      await vi.waitFor(() => expect(gates.size).toBe(2));
      expect(started).toHaveLength(2);
      // No longer busy: when the second ends, both remaining jobs are claimed and start together.
      busy = false;
      gates.get(started[1]!)!();
      await vi.waitFor(() => expect(started).toHaveLength(4));
      for (const n of started.slice(2)) {
        await vi.waitFor(() => expect(gates.has(n)).toBe(true));
        gates.get(n)!();
      }
      expect(await drained).toBe(4);
      const rows = await db.select({ status: jobs.status }).from(jobs).where(inArray(jobs.id, ids));
      expect(rows.filter((r) => r.status === 'sent')).toHaveLength(4);
    } finally {
      for (const open of gates.values()) open();
      await worker.close();
    }
  });
});
