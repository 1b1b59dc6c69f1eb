import { and, eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { FORGOT_PASSWORD_ANSWER } from '../../shared/account';
import { jobs } from '../db/schema';
import { setupTestApp } from '../test/harness';
import { startSmtpSink } from '../test/smtp-sink';
import { PASSWORD_RESET_JOB, RESET_MAIL_SUBJECT } from './recovery';

const sink = await startSmtpSink();
afterAll(() => sink.close());

// 3 requests per e-mail address per 15 minutes, 6 per client address per 5 minutes (sign-up and sign-in count
// toward the per-address limit of their own scope only: each account below is made from its own address).
const { ctx, call, signUpAndIn } = setupTestApp({
  SMTP_URL: sink.url,
  APP_URL: 'https://rural.example',
  JOBS_POLL_MS: '3600000',
  AUTH_FAILED_PER_ACCOUNT_MAX: '3',
  AUTH_PER_IP_MAX: '6',
});

const forgot = (email: string, ip: string) => call('POST', '/auth/forgot-password', { body: { email }, ip });
const resetMailsTo = (address: string) =>
  sink.mails.filter((m) => m.to.includes(address) && m.subject === RESET_MAIL_SUBJECT);
const jobsFor = (email: string) =>
  ctx.database.db
    .select()
    .from(jobs)
    .where(and(eq(jobs.kind, PASSWORD_RESET_JOB), sql`${jobs.payload} ->> 'email' = ${email}`));

describe('forgot password limits (the answer never changes)', () => {
  it('mails one address at most 3 times per window, from any client address', async () => {
    const { email } = await signUpAndIn('Flooded Inbox', '10.60.0.1');
    for (let i = 0; i < 5; i++) {
      const res = await forgot(i % 2 ? email.toUpperCase() : email, `10.60.1.${i}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: FORGOT_PASSWORD_ANSWER });
    }
    await ctx.app.jobs.runDue();
    expect(await jobsFor(email)).toHaveLength(3);
    expect(resetMailsTo(email)).toHaveLength(3);
  });

  it('stops one client address after 6 requests, whatever addresses it asks for', async () => {
    const { email } = await signUpAndIn('Real Owner', '10.61.0.1');
    const ip = '10.61.9.9';
    for (let i = 0; i < 6; i++) expect((await forgot(`someone.${i}@example.com`, ip)).status).toBe(200);
    const limited = await forgot(email, ip);
    expect(limited.status).toBe(200);
    expect(limited.body).toEqual({ message: FORGOT_PASSWORD_ANSWER });
    await ctx.app.jobs.runDue();
    expect(await jobsFor(email)).toEqual([]);
    expect(resetMailsTo(email)).toEqual([]);

    // The owner, from elsewhere, still gets the link: the refused request used none of the address's allowance.
    await forgot(email, '10.61.0.1');
    await ctx.app.jobs.runDue();
    expect(resetMailsTo(email)).toHaveLength(1);
  });
});
