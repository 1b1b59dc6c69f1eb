import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { jobs } from '../db/schema';
import { enqueueMail } from '../mail';
import { createTestDatabase, testListenUrl } from '../test/database';
import { listening, spawnServer, type ServerProcess } from '../test/server-process';
import { startSmtpSink } from '../test/smtp-sink';

const realPostgres = Boolean(process.env.DATABASE_URL);
const JOBS = 500;
const CONCURRENCY = 4;

/**
 * kill -9 of the real server while it sends: nothing is lost. Real PostgreSQL (the killed process leaves PGlite's
 * DATA_DIR to recovery, which is not what this tests). Run with `bash scripts/with-postgres.sh npx vitest run
 * src/server/jobs`.
 */
describe.skipIf(!realPostgres)('jobs survive kill -9 of the server (skipped without DATABASE_URL)', () => {
  const started: ServerProcess[] = [];
  afterAll(() => {
    for (const s of started) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
  });

  it(`every one of ${JOBS} queued mails is sent after a kill -9 and a restart`, async () => {
    const database = await createTestDatabase();
    // A slow mail server: the kill falls in the middle of sending.
    const sink = await startSmtpSink({ delayMs: 10 });
    try {
      const env = {
        DATABASE_URL: database.url!,
        ...(testListenUrl(database.url!) ? { DATABASE_LISTEN_URL: testListenUrl(database.url!)! } : {}),
        SMTP_URL: sink.url,
        JOBS_CONCURRENCY: String(CONCURRENCY),
        JOBS_POLL_MS: '200',
        // A claim of the killed process holds its jobs this long; then the next process claims them again.
        JOBS_LEASE_SECONDS: '2',
      };
      const ids: string[] = [];
      await database.db.transaction(async (tx) => {
        for (let i = 0; i < JOBS; i++) {
          const messageId = `crash-${i}-${Date.now()}`;
          ids.push(`<${messageId}@ruralroute.localhost>`);
          await enqueueMail(tx, {
            to: `p${i}@example.com`,
            subject: `Crash ${i}`,
            text: 't',
            html: '<p>t</p>',
            link: 'https://app.example/',
            messageId,
          });
        }
      });

      const first = spawnServer(env);
      started.push(first);
      await listening(first);
      const deadline = Date.now() + 60_000;
      while (sink.mails.length < 100 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      first.child.kill('SIGKILL');
      await first.exited;
      const beforeRestart = sink.mails.length;
      const queued = await database.db
        .select({ id: jobs.id })
        .from(jobs)
        .where(sql`${jobs.status} = 'queued'`);
      expect(beforeRestart).toBeGreaterThanOrEqual(100);
      expect(queued.length).toBeGreaterThan(0);

      const second = spawnServer(env);
      started.push(second);
      await listening(second);
      const until = Date.now() + 90_000;
      for (;;) {
        const sent = await database.db.select({ id: jobs.id }).from(jobs).where(eq(jobs.status, 'sent'));
        if (sent.length === JOBS || Date.now() > until) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      second.child.kill('SIGTERM');
      await second.exited;

      const rows = await database.db.select({ status: jobs.status }).from(jobs);
      expect(rows.filter((r) => r.status === 'sent')).toHaveLength(JOBS);
      const counts = sink.counts();
      for (const id of ids) expect(counts.get(id) ?? 0, id).toBeGreaterThanOrEqual(1);
      // Only the mails in flight at the kill (at most one per slot) may have arrived twice.
      const twice = [...counts.values()].filter((n) => n > 1).length;
      expect(twice).toBeLessThanOrEqual(CONCURRENCY);
      expect([...counts.values()].every((n) => n <= 2)).toBe(true);
    } finally {
      await sink.close();
      await database.close();
    }
  }, 180_000);
});
