import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { SessionInfo } from '../../shared/auth';
import { EMAIL_VERIFY_EXPIRED } from '../../shared/verification';
import { emailVerifications, jobs, profiles, users } from '../db/schema';
import { setupTestApp, STRONG_PASSWORD } from '../test/harness';
import { startSmtpSink, type ReceivedMail } from '../test/smtp-sink';
import { CONFIRM_EMAIL_SUBJECT } from '../account/email-mail';
import { EMAIL_VERIFY_JOB, VERIFY_EMAIL_SUBJECT } from './email-verification';

const APP = 'https://rural.example';
const HOUR = 60 * 60_000;
const EXPIRED = { code: 'email_link_expired', message: EMAIL_VERIFY_EXPIRED };

let shift = 0;
const clock = () => new Date(Date.now() + shift);
afterEach(() => {
  shift = 0;
});

const sink = await startSmtpSink({ keepEmailVerification: true });
afterAll(() => sink.close());

const { ctx, call, signUpAndIn } = setupTestApp(
  {
    SMTP_URL: sink.url,
    MAIL_FROM: 'RuralRoute <hello@rural.example>',
    APP_URL: `${APP}/`,
    JOBS_POLL_MS: '3600000',
    AUTH_PER_IP_MAX: '100000',
    AUTH_FAILED_PER_ACCOUNT_MAX: '100000',
  },
  { clock },
);

const verifyMailsTo = (address: string): ReceivedMail[] =>
  sink.mails.filter((m) => m.to.includes(address) && m.subject === VERIFY_EMAIL_SUBJECT);
const confirm = (token: unknown) => call<{ email: string }>('POST', '/auth/verify-email', { body: { token } });
const resend = (cookie: string) => call<{ email: string }>('POST', '/account/email-verification', { cookie });
const sessionOf = async (cookie: string) => (await call<SessionInfo>('GET', '/auth/session', { cookie })).body;
const verifiedAt = async (userId: string) =>
  (await ctx.database.db.select({ at: profiles.emailVerifiedAt }).from(profiles).where(eq(profiles.userId, userId)))[0]!
    .at;

/** The token of a verification mail's link (checked to be the app's /verify-email page). */
function tokenOf(mail: ReceivedMail): string {
  const link = mail.text.match(/https:\/\/\S+/)?.[0];
  const url = new URL(link!);
  expect(url.origin + url.pathname).toBe(`${APP}/verify-email`);
  return url.searchParams.get('token')!;
}

/** Runs the queued jobs and returns the token of the newest verification mail to `address`. */
async function latestLink(address: string): Promise<string> {
  await ctx.app.jobs.runDue();
  const mail = verifyMailsTo(address).at(-1);
  expect(mail).toBeDefined();
  return tokenOf(mail!);
}

describe('e-mail verification', () => {
  it('mails a 24-hour link at sign-up; the link confirms the address, once, and the session says so at once', async () => {
    const me = await signUpAndIn('Vera Verify');
    expect((await sessionOf(me.token)).user).toMatchObject({ email: me.email, email_verified: false });
    const queued = await ctx.database.db.select().from(jobs).where(eq(jobs.kind, EMAIL_VERIFY_JOB));
    expect(queued.some((j) => (j.payload as { user_id: string }).user_id === me.user.id)).toBe(true);
    // The token is made by the job: never in the job table.
    const token = await latestLink(me.email);
    const [mail] = verifyMailsTo(me.email);
    expect(mail!.text).toContain('valid for 24 hours');
    expect(mail!.headers['list-unsubscribe']).toBeUndefined();
    expect(JSON.stringify(await ctx.database.db.select().from(jobs))).not.toContain(token);
    const rows = await ctx.database.db
      .select()
      .from(emailVerifications)
      .where(eq(emailVerifications.userId, me.user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(rows[0]!.email).toBe(me.email);
    expect(rows[0]!.expiresAt.getTime() - rows[0]!.createdAt.getTime()).toBe(24 * HOUR);

    const res = await confirm(token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ email: me.email });
    expect(await verifiedAt(me.user.id)).not.toBeNull();
    expect((await sessionOf(me.token)).user?.email_verified).toBe(true);
    // A second click on the same link still says it is confirmed (another device); nothing else changes.
    expect((await confirm(token)).status).toBe(200);
    // Resending for a confirmed address is refused.
    expect(await resend(me.token)).toMatchObject({ status: 409, body: { code: 'email_already_verified' } });
  });

  it('refuses an expired, unknown or malformed link with the same answer, changing nothing', async () => {
    const me = await signUpAndIn('Evan Expired');
    const token = await latestLink(me.email);
    shift = 24 * HOUR + 1000;
    expect(await confirm(token)).toMatchObject({ status: 400, body: EXPIRED });
    shift = 0;
    for (const bad of ['', 'x'.repeat(201), 'not-a-token', 42, null]) {
      const res = await confirm(bad);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ message: expect.any(String) });
    }
    expect((await call('POST', '/auth/verify-email', { body: 'nope' })).status).toBe(400);
    expect(await verifiedAt(me.user.id)).toBeNull();
  });

  it("'Resend email' mails a new link (the older ones still work until one is used), at most 3 an hour", async () => {
    const me = await signUpAndIn('Rita Resend');
    const first = await latestLink(me.email);
    for (let i = 0; i < 3; i += 1)
      expect(await resend(me.token)).toMatchObject({ status: 202, body: { email: me.email } });
    const fourth = await resend(me.token);
    expect(fourth.status).toBe(429);
    await ctx.app.jobs.runDue();
    const mails = verifyMailsTo(me.email);
    expect(mails).toHaveLength(4);
    const tokens = mails.map(tokenOf);
    expect(new Set(tokens).size).toBe(4);
    // The first link works; then every other is used up (confirmed already: they say so, nothing more).
    expect((await confirm(first)).status).toBe(200);
    const rows = await ctx.database.db
      .select()
      .from(emailVerifications)
      .where(eq(emailVerifications.userId, me.user.id));
    expect(rows.every((r) => r.usedAt !== null)).toBe(true);
    // Signed out: resend needs a session.
    expect((await call('POST', '/account/email-verification')).status).toBe(401);
  });

  it('a link stops confirming once the account has another address; the change link confirms the new one', async () => {
    const me = await signUpAndIn('Cora Change');
    const oldLink = await latestLink(me.email);
    const next = `cora.${Date.now()}@example.com`;
    expect(
      (
        await call('POST', '/account/email', {
          cookie: me.token,
          body: { new_email: next, current_password: STRONG_PASSWORD },
        })
      ).status,
    ).toBe(202);
    await ctx.app.jobs.runDue();
    const changeMail = sink.mails.filter((m) => m.to.includes(next) && m.subject === CONFIRM_EMAIL_SUBJECT).at(-1)!;
    const changeToken = new URL(changeMail.text.match(/https:\/\/\S+/)![0]).searchParams.get('token')!;
    expect((await call('POST', '/auth/confirm-email', { body: { token: changeToken } })).status).toBe(200);
    expect((await sessionOf(me.token)).user).toMatchObject({ email: next, email_verified: true });
    // The old address's link no longer confirms anything (the account's address is another now).
    await ctx.database.db.update(profiles).set({ emailVerifiedAt: null }).where(eq(profiles.userId, me.user.id));
    expect(await confirm(oldLink)).toMatchObject({ status: 400, body: EXPIRED });
    expect(await verifiedAt(me.user.id)).toBeNull();
  });

  it('a queued mail is not sent when the address was confirmed meanwhile, nor for a suspended account', async () => {
    const me = await signUpAndIn('Sam Skip');
    const token = await latestLink(me.email);
    // The app's clock an hour behind while the jobs are queued and until the change that makes them moot: they are
    // due at the database's now, so the worker (woken by their NOTIFY, whenever it arrives) leaves them until then.
    shift = -HOUR;
    expect(await resend(me.token)).toMatchObject({ status: 202 });
    // Confirmed before the resend's job runs: that job sends nothing.
    expect((await confirm(token)).status).toBe(200);
    const other = await signUpAndIn('Sue Suspended');
    await ctx.database.db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, other.user.id));
    shift = 0;
    await ctx.app.jobs.runDue();
    expect(verifyMailsTo(me.email)).toHaveLength(1);
    expect(verifyMailsTo(other.email)).toHaveLength(0);
  });
});
