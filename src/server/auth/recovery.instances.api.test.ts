import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESET_LINK_EXPIRED } from '../../shared/account';
import type { Database } from '../db/client';
import { setupTwoInstances } from '../test/harness';
import { startSmtpSink } from '../test/smtp-sink';
import { RESET_MAIL_SUBJECT } from './recovery';
import { SESSION_REVOKED } from './service';
import { until } from '../test/wait';

const realPostgres = Boolean(process.env.DATABASE_URL);

const sink = realPostgres ? await startSmtpSink() : undefined;
afterAll(() => sink?.close());

describe.skipIf(!realPostgres)('password reset across two instances on one PostgreSQL', () => {
  // The default session cache (5 s): both instances cache every session they resolve.
  const { ctx, a, b, signUpAndIn } = setupTwoInstances({
    SMTP_URL: sink?.url ?? '',
    APP_URL: 'https://rural.example',
    JOBS_POLL_MS: '3600000',
    AUTH_PER_IP_MAX: '100000',
  });
  const listening = (d: Database) => d.notifications.isListening(SESSION_REVOKED);
  beforeAll(() => until('both LISTEN connections', () => ctx.databases.every(listening)));

  /** Asks on A; whichever instance's worker claims the job, one mail arrives. */
  async function linkFor(email: string): Promise<string> {
    expect((await a('POST', '/auth/forgot-password', { body: { email } })).status).toBe(200);
    await Promise.all(ctx.apps.map((app) => app.jobs.runDue()));
    await until('the reset mail', () => sink!.mails.some((m) => m.to.includes(email)));
    const mails = sink!.mails.filter((m) => m.to.includes(email) && m.subject === RESET_MAIL_SUBJECT);
    expect(mails).toHaveLength(1);
    return new URL(mails[0]!.text.match(/https:\/\/\S+/)![0]).searchParams.get('token')!;
  }

  const reset = (call: typeof a, token: string, password: string) =>
    call('POST', '/auth/reset-password', { body: { token, new_password: password, confirm_password: password } });

  // Well inside the session cache's 5 s: only the revocation's notification can make B refuse this soon.
  it('a reset on A ends the session B has cached, within a second', async () => {
    const { email, token: session } = await signUpAndIn('Two Places');
    expect((await b('GET', '/rides/mine', { cookie: session })).status).toBe(200);
    const token = await linkFor(email);
    expect((await reset(a, token, 'Brand-New-Fence-42')).status).toBe(204);
    await until(
      'B to refuse the session',
      async () => (await b('GET', '/rides/mine', { cookie: session })).status === 401,
      1_000,
    );
  });

  it('of two resets with one link on two instances at once, exactly one succeeds', async () => {
    const { email } = await signUpAndIn('Race Across');
    const token = await linkFor(email);
    const [ra, rb] = await Promise.all([reset(a, token, 'First-Racer-123!'), reset(b, token, 'Second-Racer-456!')]);
    expect([ra.status, rb.status].sort()).toEqual([204, 400]);
    expect((ra.status === 400 ? ra : rb).body).toEqual({ code: 'reset_link_expired', message: RESET_LINK_EXPIRED });
    const winner = ra.status === 204 ? 'First-Racer-123!' : 'Second-Racer-456!';
    expect((await b('POST', '/auth/sign-in', { body: { email, password: winner } })).status).toBe(200);
  });
});
