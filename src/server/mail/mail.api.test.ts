import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { jobs } from '../db/schema';
import { MAX_ATTEMPTS } from '../jobs';
import { setupTestApp } from '../test/harness';
import { parseMail, startSmtpSink } from '../test/smtp-sink';
import { enqueueMail } from './index';

const HOUR = 3_600_000;
/** The app's clock runs `shift` ahead of the wall clock: a retry's backoff passes without waiting. */
let shift = 0;
const clock = () => new Date(Date.now() + shift);

/** Mails whose subject starts with 'Flaky' are refused twice; 'Doomed' ones always. */
const tries = new Map<string, number>();
const sink = await startSmtpSink({
  accept(mail) {
    const n = (tries.get(mail.messageId) ?? 0) + 1;
    tries.set(mail.messageId, n);
    if (mail.subject.startsWith('Doomed')) return new Error('Mailbox unavailable, try later');
    if (mail.subject.startsWith('Flaky') && n <= 2) return new Error(`Greylisted (attempt ${n})`);
    return undefined;
  },
});
afterAll(() => sink.close());

const mail = (subject: string, extra: { unsubscribeUrl?: string; to?: string } = {}) => ({
  to: extra.to ?? 'ada@example.com',
  subject,
  text: `Hello Ada. ${subject}: https://app.example/requests/1`,
  html: `<p>Hello Ada. <a href="https://app.example/requests/1">${subject}</a></p>`,
  link: 'https://app.example/requests/1',
  ...extra,
});

describe('e-mail jobs over SMTP', () => {
  const { ctx } = setupTestApp({ SMTP_URL: sink.url, MAIL_FROM: 'RuralRoute <hello@rural.example>' }, { clock });
  afterEach(() => {
    shift = 0;
  });
  const jobOf = async (id: number) => (await ctx.database.db.select().from(jobs).where(eq(jobs.id, id)))[0]!;
  const received = (messageId: string) => sink.mails.filter((m) => m.messageId === messageId);

  it('sends the recipient, subject, both parts, the link and one-click unsubscribe headers', async () => {
    const id = await enqueueMail(
      ctx.database.db,
      mail('Ben offered to drive', { unsubscribeUrl: 'https://app.example/unsubscribe?t=abc' }),
      { dedupeKey: 'offer:1' },
    );
    await ctx.app.jobs.runDue();
    const job = await jobOf(id!);
    expect(job).toMatchObject({ status: 'sent', attempts: 1, lastError: null, lockedUntil: null });
    expect(job.finishedAt).toBeInstanceOf(Date);

    const messageId = `<${(job.payload as { messageId: string }).messageId}@rural.example>`;
    const [got] = received(messageId);
    expect(got).toBeDefined();
    expect(got!.to).toEqual(['ada@example.com']);
    expect(got!.subject).toBe('Ben offered to drive');
    expect(got!.headers.from).toBe('RuralRoute <hello@rural.example>');
    expect(got!.text).toBe('Hello Ada. Ben offered to drive: https://app.example/requests/1');
    expect(got!.html).toBe('<p>Hello Ada. <a href="https://app.example/requests/1">Ben offered to drive</a></p>');
    expect(got!.headers['list-unsubscribe']).toBe('<https://app.example/unsubscribe?t=abc>');
    expect(got!.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
  });

  it('a mail without an unsubscribe link (security) has no List-Unsubscribe headers; a dedupe key is used once', async () => {
    const id = await enqueueMail(ctx.database.db, mail('Your password was changed'));
    expect(await enqueueMail(ctx.database.db, mail('Ben offered again'), { dedupeKey: 'offer:1' })).toBeNull();
    await ctx.app.jobs.runDue();
    const job = await jobOf(id!);
    const [got] = received(`<${(job.payload as { messageId: string }).messageId}@rural.example>`);
    expect(got!.subject).toBe('Your password was changed');
    expect(got!.headers['list-unsubscribe']).toBeUndefined();
    expect(got!.headers['list-unsubscribe-post']).toBeUndefined();
    expect(sink.mails.some((m) => m.subject === 'Ben offered again')).toBe(false);
  });

  it('retries with backoff after the server refuses twice, and the Message-ID is the same on every attempt', async () => {
    const id = await enqueueMail(ctx.database.db, mail('Flaky: you were chosen'));
    await ctx.app.jobs.runDue();
    let job = await jobOf(id!);
    expect(job).toMatchObject({ status: 'queued', attempts: 1, lockedUntil: null });
    expect(job.lastError).toMatch(/Greylisted \(attempt 1\)/);
    // The first retry waits 30 s +- 20 %: not due yet a few seconds later.
    const wait = job.runAt.getTime() - Date.now();
    expect(wait).toBeGreaterThan(20_000);
    expect(wait).toBeLessThan(40_000);
    shift = 5_000;
    expect(await ctx.app.jobs.runDue()).toBe(0);

    shift = HOUR;
    await ctx.app.jobs.runDue();
    job = await jobOf(id!);
    expect(job).toMatchObject({ status: 'queued', attempts: 2 });
    expect(job.lastError).toMatch(/attempt 2/);
    // The second waits twice as long (60 s +- 20 %), from the (moved) clock.
    const second = job.runAt.getTime() - (Date.now() + shift);
    expect(second).toBeGreaterThan(45_000);
    expect(second).toBeLessThan(75_000);

    shift = 2 * HOUR;
    await ctx.app.jobs.runDue();
    job = await jobOf(id!);
    expect(job).toMatchObject({ status: 'sent', attempts: 3 });
    const messageId = `<${(job.payload as { messageId: string }).messageId}@rural.example>`;
    expect(tries.get(messageId)).toBe(3);
    expect(received(messageId)).toHaveLength(1);
  });

  it(`keeps the job as failed with its last error after ${MAX_ATTEMPTS} refused attempts, and tries no more`, async () => {
    const id = await enqueueMail(ctx.database.db, mail('Doomed: delivery completed'));
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      shift = attempt * 3 * HOUR;
      await ctx.app.jobs.runDue();
    }
    let job = await jobOf(id!);
    expect(job).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS, lockedUntil: null });
    expect(job.lastError).toMatch(/Mailbox unavailable, try later/);
    expect(job.finishedAt).toBeInstanceOf(Date);
    const messageId = `<${(job.payload as { messageId: string }).messageId}@rural.example>`;
    expect(tries.get(messageId)).toBe(MAX_ATTEMPTS);

    shift = 100 * HOUR;
    expect(await ctx.app.jobs.runDue()).toBe(0);
    job = await jobOf(id!);
    expect(job.attempts).toBe(MAX_ATTEMPTS);
    expect(tries.get(messageId)).toBe(MAX_ATTEMPTS);
  });

  it('an enqueue wakes the worker at once (NOTIFY), without a runDue', async () => {
    const id = await enqueueMail(ctx.database.db, mail('Picked up'));
    await vi.waitFor(async () => expect((await jobOf(id!)).status).toBe('sent'), { timeout: 5000, interval: 20 });
  });
});

describe('e-mail without SMTP_URL (the embedded default)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'rr-mail-'));
  const { ctx } = setupTestApp({ DATA_DIR: dataDir, JOBS_POLL_MS: '3600000' });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('writes each mail as an .eml file under DATA_DIR/mail and logs its subject and link', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      await enqueueMail(ctx.database.db, {
        ...mail('Reset your password', { to: 'new@example.com' }),
        link: 'http://localhost:3000/reset-password?token=xyz',
      });
      await ctx.app.jobs.runDue();
      const files = readdirSync(join(dataDir, 'mail'));
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(/\.eml$/);
      const eml = parseMail(readFileSync(join(dataDir, 'mail', files[0]!), 'utf8'));
      expect(eml.subject).toBe('Reset your password');
      expect(eml.headers.to).toBe('new@example.com');
      expect(eml.messageId).toMatch(/^<rr-[0-9a-f-]+@ruralroute\.localhost>$/);
      const lines = log.mock.calls.map((c) => String(c[0]));
      expect(lines).toContainEqual(
        expect.stringMatching(
          /^\[mail\] to new@example\.com: "Reset your password" http:\/\/localhost:3000\/reset-password\?token=xyz \(.*\.eml\)$/,
        ),
      );
    } finally {
      log.mockRestore();
    }
  });
});
