import { afterAll, describe, expect, it, vi } from 'vitest';
import { jobs } from '../db/schema';
import { enqueueMail } from '../mail';
import { setupTwoInstances } from '../test/harness';
import { startSmtpSink } from '../test/smtp-sink';

const realPostgres = Boolean(process.env.DATABASE_URL);
const SKIP_REASON = '(skipped without DATABASE_URL: PGlite has one connection, so no race)';
const JOBS = 1000;

const sink = realPostgres ? await startSmtpSink() : null;
afterAll(() => sink?.close());

/**
 * Two app instances on one PostgreSQL, as behind a load balancer, each with its own worker, drain the same queue.
 * Run with `bash scripts/with-postgres.sh npx vitest run src/server/jobs`.
 */
describe.skipIf(!realPostgres)(`jobs on two instances of real PostgreSQL ${SKIP_REASON}`, () => {
  const { ctx } = setupTwoInstances({ SMTP_URL: sink?.url ?? '', JOBS_CONCURRENCY: '8', JOBS_POLL_MS: '100' });

  it(`two workers send each of ${JOBS} queued mails exactly once`, async () => {
    const [a, b] = ctx.apps;
    const [dbA] = ctx.databases;
    // Queued in one transaction: both workers are woken by its one NOTIFY at commit, and race for every job.
    await dbA.db.transaction(async (tx) => {
      for (let i = 0; i < JOBS; i++)
        await enqueueMail(tx, {
          to: `person${i}@example.com`,
          subject: `Mail ${i}`,
          text: `Mail ${i}`,
          html: `<p>Mail ${i}</p>`,
          link: `https://app.example/${i}`,
        });
    });
    const ran = await Promise.all([a.jobs.runDue(), b.jobs.runDue(), a.jobs.runDue(), b.jobs.runDue()]);
    await vi.waitFor(
      async () => {
        const rows = await dbA.db.select({ status: jobs.status, attempts: jobs.attempts }).from(jobs);
        expect(rows.filter((r) => r.status === 'sent')).toHaveLength(JOBS);
      },
      { timeout: 60_000, interval: 100 },
    );
    const rows = await dbA.db.select({ attempts: jobs.attempts }).from(jobs);
    expect(rows.every((r) => r.attempts === 1)).toBe(true);
    const counts = sink!.counts();
    expect(counts.size).toBe(JOBS);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    expect(sink!.attempts).toBe(JOBS);
    // The explicit runs claimed no job twice either (their timers and NOTIFY wake-ups claimed the rest).
    expect(ran.reduce((x, y) => x + y, 0)).toBeLessThanOrEqual(JOBS);
  }, 90_000);
});
