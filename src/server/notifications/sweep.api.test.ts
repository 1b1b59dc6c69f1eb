import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { count, eq, inArray, isNotNull } from 'drizzle-orm';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { NOTIFICATION_RETENTION_DAYS, type Notification } from '../../shared/notifications';
import { jobs, notifications } from '../db/schema';
import { Outbox } from '../events';
import { setupTestApp } from '../test/harness';
import type { PageBody } from '../test/marketplace';
import { createNotificationSweep, notify } from './index';

const DAY = 24 * 3_600_000;
let shift = 0;
const clock = () => new Date(Date.now() + shift);
afterEach(() => {
  shift = 0;
});

// The notifications' e-mails go to .eml files here (no SMTP_URL).
const dataDir = mkdtempSync(join(tmpdir(), 'rr-sweep-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const { ctx, call, signUpAndIn } = setupTestApp({ DATA_DIR: dataDir, JOBS_POLL_MS: '3600000' }, { clock });

/** Writes `n` notifications and sends their e-mails now (so no job runs later, at a moved clock, or meanwhile). */
async function writeNotifications(userId: string, n: number) {
  await ctx.database.db.transaction(async (tx) => {
    const out = new Outbox();
    await notify(
      tx,
      out,
      Array.from({ length: n }, (_, i) => ({ userId, type: 'picked_up' as const, data: { title: `Parcel ${i}` } })),
    );
    await out.flush(tx);
  });
  await ctx.app.jobs.runDue();
}

async function finishedJobs(status: 'sent' | 'failed', n: number): Promise<number[]> {
  const rows = await ctx.database.db
    .insert(jobs)
    .values(Array.from({ length: n }, () => ({ kind: 'test', payload: {}, status, finishedAt: new Date() })))
    .returning({ id: jobs.id });
  return rows.map((r) => r.id);
}

const remaining = async (ids: number[]) =>
  (await ctx.database.db.select({ id: jobs.id }).from(jobs).where(inArray(jobs.id, ids))).length;

describe('the notification sweep', () => {
  it(`deletes read notifications after ${NOTIFICATION_RETENTION_DAYS} days, sent jobs after 7 and failed ones after 30`, async () => {
    const ana = await signUpAndIn();
    await writeNotifications(ana.user.id, 5);
    const mine = (await call<PageBody<Notification>>('GET', '/notifications', { cookie: ana.token })).body.items;
    expect(mine).toHaveLength(5);
    // Three read (all at once), two left unread.
    for (const n of mine.slice(0, 3))
      expect((await call('POST', `/notifications/${n.id}/read`, { cookie: ana.token, body: {} })).status).toBe(200);
    const sent = await finishedJobs('sent', 3);
    const failed = await finishedJobs('failed', 2);
    const queued = (
      await ctx.database.db
        .insert(jobs)
        .values({ kind: 'test', payload: {}, runAt: new Date(Date.now() + 1000 * DAY) })
        .returning({ id: jobs.id })
    ).map((r) => r.id);

    // Nothing is old yet.
    expect(await ctx.app.notifications.sweep()).toEqual({ notifications: 0, sentJobs: 0, failedJobs: 0 });

    shift = 8 * DAY;
    const week = await ctx.app.notifications.sweep();
    expect(week.sentJobs).toBeGreaterThanOrEqual(3);
    expect(week.failedJobs).toBe(0);
    expect(await remaining(sent)).toBe(0);
    expect(await remaining(failed)).toBe(2);

    shift = 31 * DAY;
    expect((await ctx.app.notifications.sweep()).failedJobs).toBeGreaterThanOrEqual(2);
    expect(await remaining(failed)).toBe(0);
    expect(
      (await call<PageBody<Notification>>('GET', '/notifications', { cookie: ana.token })).body.items,
    ).toHaveLength(5);

    shift = (NOTIFICATION_RETENTION_DAYS + 1) * DAY;
    expect((await ctx.app.notifications.sweep()).notifications).toBe(3);
    const left = (await call<PageBody<Notification>>('GET', '/notifications', { cookie: ana.token })).body.items;
    expect(left.map((n) => n.id).sort()).toEqual(
      mine
        .slice(3)
        .map((n) => n.id)
        .sort(),
    );
    expect(left.every((n) => n.read_at === null)).toBe(true);
    // A queued job is never swept, however old.
    expect(await remaining(queued)).toBe(1);
  });

  it('two sweeps at once (two instances) delete each row once between them', async () => {
    const ana = await signUpAndIn();
    await writeNotifications(ana.user.id, 40);
    await ctx.database.db
      .update(notifications)
      .set({ readAt: new Date() })
      .where(inArray(notifications.userId, [ana.user.id]));
    const sent = await finishedJobs('sent', 40);
    await ctx.app.jobs.runDue(); // the notifications' e-mails: sent jobs too
    const [readRows] = await ctx.database.db
      .select({ n: count() })
      .from(notifications)
      .where(isNotNull(notifications.readAt));
    const [sentRows] = await ctx.database.db.select({ n: count() }).from(jobs).where(eq(jobs.status, 'sent'));
    expect(readRows!.n).toBe(40);
    expect(sentRows!.n).toBeGreaterThanOrEqual(80);
    const a = createNotificationSweep(ctx.database.db, clock);
    const b = createNotificationSweep(ctx.database.db, clock);
    try {
      shift = (NOTIFICATION_RETENTION_DAYS + 1) * DAY;
      const [x, y] = await Promise.all([a.sweep(), b.sweep()]);
      expect(x.notifications + y.notifications).toBe(readRows!.n);
      expect(x.sentJobs + y.sentJobs).toBe(sentRows!.n);
      expect(await remaining(sent)).toBe(0);
      const rows = await ctx.database.db
        .select()
        .from(notifications)
        .where(inArray(notifications.userId, [ana.user.id]));
      expect(rows).toEqual([]);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
