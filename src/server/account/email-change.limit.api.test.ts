import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { AccountProfile } from '../../shared/account';
import { jobs } from '../db/schema';
import { STRONG_PASSWORD, setupTestApp } from '../test/harness';
import { EMAIL_CHANGE_JOB } from './email-service';

// Three mails to one address per window (the sign-in failure limit, which forgot-password's per-address limit
// shares); the jobs are left queued (no worker poll), so what is counted is what would be mailed.
const { ctx, call, signUpAndIn } = setupTestApp({
  JOBS_POLL_MS: '3600000',
  AUTH_PER_IP_MAX: '100000',
  AUTH_FAILED_PER_ACCOUNT_MAX: '3',
});

const fresh = (name: string) => `${name}.${Date.now()}.${Math.random().toString(36).slice(2, 8)}@example.com`;
const requestChange = (token: string, new_email: string, current_password = STRONG_PASSWORD) =>
  call<{ pending_email: string }>('POST', '/account/email', {
    cookie: token,
    body: { new_email, current_password },
  });
const changeJobs = async () =>
  (await ctx.database.db.select().from(jobs).where(eq(jobs.kind, EMAIL_CHANGE_JOB))).length;
const pendingOf = async (token: string) =>
  (await call<AccountProfile>('GET', '/account/profile', { cookie: token })).body.pending_email;

describe('mails to one address are limited, whoever asks', () => {
  it('refuses the 4th request to one address in the window (429, Retry-After), from any account, queueing nothing', async () => {
    const victim = fresh('inbox');
    const [a, b, c] = [await signUpAndIn('Ann'), await signUpAndIn('Bob'), await signUpAndIn('Cat')];
    // A wrong password is refused first and does not use up the address's mails.
    expect((await requestChange(a.token, victim, 'Not-My-Password-1')).status).toBe(400);
    for (const who of [a, b, a]) expect((await requestChange(who.token, victim)).status).toBe(202);
    const jobsBefore = await changeJobs();

    const refused = await requestChange(c.token, victim);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      code: 'too_many_requests',
      message: 'Too many attempts. Please wait 15 minutes and try again.',
    });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Nothing changed for the one refused: no job, nothing pending; the others' changes stand.
    expect(await changeJobs()).toBe(jobsBefore);
    expect(await pendingOf(c.token)).toBeNull();
    expect(await pendingOf(b.token)).toBe(victim);
    // The address is compared as stored (trimmed, lower-case): another spelling is the same address.
    expect((await requestChange(c.token, ` ${victim.toUpperCase()} `)).status).toBe(429);
    // Another address is not affected.
    const other = fresh('other');
    expect(await requestChange(c.token, other)).toMatchObject({ status: 202, body: { pending_email: other } });
  });
});
