import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_REVOKED } from '../auth/service';
import type { Database } from '../db/client';
import { STRONG_PASSWORD, setupTwoInstances } from '../test/harness';
import { startSmtpSink } from '../test/smtp-sink';
import { heard } from '../test/revocation';
import { until } from '../test/wait';

const realPostgres = Boolean(process.env.DATABASE_URL);

const sink = await startSmtpSink();
afterAll(() => sink.close());

describe.skipIf(!realPostgres)('an address change across two instances on one PostgreSQL', () => {
  // A long session cache (30 s), so a stale entry on B would outlive the test: only the notification can clear it.
  const { ctx, a, b, signUpAndIn } = setupTwoInstances({
    SMTP_URL: sink.url,
    JOBS_POLL_MS: '3600000',
    AUTH_PER_IP_MAX: '100000',
    SESSION_CACHE_SECONDS: '30',
  });
  const listening = (d: Database) => d.notifications.isListening(SESSION_REVOKED);
  beforeAll(() => until('both LISTEN connections', () => ctx.databases.every(listening)));

  const sessionEmail = async (call: typeof a, token: string) =>
    (await call<{ user: { email: string } | null }>('GET', '/auth/session', { cookie: token })).body.user?.email;

  it('confirmed through A, the new address shows on B at once and signs in there', async () => {
    const me = await signUpAndIn('Ines Instances');
    // B has resolved (and cached) the session.
    expect(await sessionEmail(b, me.token)).toBe(me.email);
    const next = `ines.${Date.now()}@example.com`;
    const asked = await a('POST', '/account/email', {
      cookie: me.token,
      body: { new_email: next, current_password: STRONG_PASSWORD },
    });
    expect(asked.status).toBe(202);
    // Either instance's worker may send it (both are woken by the enqueue).
    await Promise.all(ctx.apps.map((app) => app.jobs.runDue()));
    await until('the confirmation mail', () => sink.mails.some((m) => m.to.includes(next)));
    const token = sink.mails.find((m) => m.to.includes(next))!.text.match(/token=(\S+)/)![1]!;
    expect(await sessionEmail(b, me.token)).toBe(me.email);

    const delivered = heard(ctx.databases[1], `profile:${me.user.id}`);
    expect((await a('POST', '/auth/confirm-email', { body: { token } })).body).toEqual({ email: next });
    expect(await delivered).toBe(true);
    expect(await sessionEmail(b, me.token)).toBe(next);
    expect((await b('GET', '/account/profile', { cookie: me.token })).body).toMatchObject({
      email: next,
      pending_email: null,
    });

    const signInOnB = async (email: string) =>
      (await b('POST', '/auth/sign-in', { body: { email, password: STRONG_PASSWORD } })).status;
    expect(await signInOnB(next)).toBe(200);
    expect(await signInOnB(me.email)).toBe(401);
    // The same link on B: used.
    expect((await b('POST', '/auth/confirm-email', { body: { token } })).body).toMatchObject({
      code: 'email_link_expired',
    });
  });
});
