import { createHash } from 'node:crypto';
import pg from 'pg';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { FORGOT_PASSWORD_ANSWER, RESET_LINK_EXPIRED } from '../../shared/account';
import type { Notification } from '../../shared/notifications';
import { jobs, passwordResetTokens, users } from '../db/schema';
import { STRONG_PASSWORD, setupTestApp } from '../test/harness';
import type { PageBody } from '../test/marketplace';
import { startSmtpSink, type ReceivedMail } from '../test/smtp-sink';
import { loggingDb } from '../test/logging-db';
import { tombstoneEmail } from '../account/deletion';
import { until } from '../test/wait';
import { createRecoveryService, PASSWORD_RESET_JOB, RESET_MAIL_SUBJECT } from './recovery';

const APP = 'https://rural.example';
const MINUTE = 60_000;
const NEW_PASSWORD = 'Brand-New-Fence-42';
const EXPIRED = { code: 'reset_link_expired', message: RESET_LINK_EXPIRED };

/** The app's clock runs `shift` ahead of the wall clock: a link's hour passes without waiting. */
let shift = 0;
const clock = () => new Date(Date.now() + shift);
afterEach(() => {
  shift = 0;
});

const sink = await startSmtpSink();
afterAll(() => sink.close());

// Limits out of the way here (recovery-limits.api.test.ts tests them): the timing test asks 40 times.
const { ctx, call, signUpAndIn, signIn } = setupTestApp(
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

const mailsTo = (address: string): ReceivedMail[] => sink.mails.filter((m) => m.to.includes(address));
const resetMailsTo = (address: string) => mailsTo(address).filter((m) => m.subject === RESET_MAIL_SUBJECT);

const forgot = (email: unknown, ip?: string) => call('POST', '/auth/forgot-password', { body: { email }, ip });
const check = (token: string) =>
  call<{ valid: boolean }>('GET', `/auth/reset-password/check?token=${encodeURIComponent(token)}`);
const reset = (token: string, password = NEW_PASSWORD, confirm = password) =>
  call('POST', '/auth/reset-password', { body: { token, new_password: password, confirm_password: confirm } });
const signInStatus = async (email: string, password: string) =>
  (await call('POST', '/auth/sign-in', { body: { email, password } })).status;

/** The token of the link in the mail (checked to be the app's reset page). */
function tokenOf(mail: ReceivedMail): string {
  const link = mail.text.match(/https:\/\/\S+/)?.[0];
  expect(link).toBeDefined();
  const url = new URL(link!);
  expect(url.origin + url.pathname).toBe(`${APP}/auth/reset-password`);
  return url.searchParams.get('token')!;
}

/** Asks for a link for `email` and runs the job; returns the token of the one new mail. */
async function linkFor(email: string): Promise<string> {
  const before = resetMailsTo(email).length;
  expect((await forgot(email)).status).toBe(200);
  await ctx.app.jobs.runDue();
  const mails = resetMailsTo(email);
  expect(mails).toHaveLength(before + 1);
  return tokenOf(mails.at(-1)!);
}

const resetJobsFor = (email: string) =>
  ctx.database.db
    .select()
    .from(jobs)
    .where(and(eq(jobs.kind, PASSWORD_RESET_JOB), sql`${jobs.payload} ->> 'email' = ${email}`));

describe('forgot password', () => {
  it('mails the account a link to the reset page; only the SHA-256 of its token is stored', async () => {
    const { email, user } = await signUpAndIn('Ana Diaz');
    // Typed differently: the lookup ignores case and surrounding spaces.
    const res = await forgot(`  ${email.toUpperCase()} `);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: FORGOT_PASSWORD_ANSWER });
    expect(await resetJobsFor(email)).toHaveLength(1);
    await ctx.app.jobs.runDue();

    const [mail, ...more] = mailsTo(email);
    expect(more).toEqual([]);
    expect(mail!.to).toEqual([email]);
    expect(mail!.subject).toBe(RESET_MAIL_SUBJECT);
    expect(mail!.headers.from).toBe('RuralRoute <hello@rural.example>');
    expect(mail!.headers['list-unsubscribe']).toBeUndefined();
    const token = tokenOf(mail!);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const link = `${APP}/auth/reset-password?token=${token}`;
    expect(mail!.text).toContain('RuralRoute');
    expect(mail!.text).toContain(
      'Someone asked to reset the password of your RuralRoute account. If it was you, choose a new password with this link (valid for 1 hour):',
    );
    expect(mail!.text).toContain(link);
    expect(mail!.text).toContain("If it wasn't you, ignore this e-mail: your password stays the same.");
    expect(mail!.html).toContain(`<a href="${link}">`);
    expect(mail!.html).toContain('If it wasn&#39;t you, ignore this e-mail: your password stays the same.');

    const [job] = await resetJobsFor(email);
    expect(job).toMatchObject({ status: 'sent', attempts: 1 });
    expect(mail!.messageId).toBe(`<rr-reset-${job!.id}@rural.example>`);

    const rows = await ctx.database.db
      .select()
      .from(passwordResetTokens)
      .where(eq(passwordResetTokens.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(rows[0]!.usedAt).toBeNull();
    expect(rows[0]!.expiresAt.getTime() - rows[0]!.createdAt.getTime()).toBe(60 * MINUTE);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('answers an unknown address the same, queues the same one job, and sends nothing', async () => {
    const { email } = await signUpAndIn('Known Person');
    const unknown = `nobody.${Date.now()}@example.com`;
    const sent = sink.mails.length;
    const [a, b] = [await forgot(unknown), await forgot(email)];
    expect(a.status).toBe(200);
    expect(a.body).toEqual(b.body);
    expect(a.headers.get('content-type')).toBe(b.headers.get('content-type'));
    expect(await resetJobsFor(unknown)).toHaveLength(1);
    await ctx.app.jobs.runDue();
    expect((await resetJobsFor(unknown))[0]).toMatchObject({ status: 'sent', attempts: 1 });
    expect(mailsTo(unknown)).toEqual([]);
    // Only the known address got a mail.
    expect(sink.mails.slice(sent).map((m) => m.to)).toEqual([[email]]);
  });

  it('sends nothing to a suspended account, and its earlier link stops working', async () => {
    const { email, user } = await signUpAndIn('Suspended Person');
    const token = await linkFor(email);
    await ctx.database.db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, user.id));
    expect((await forgot(email)).body).toEqual({ message: FORGOT_PASSWORD_ANSWER });
    await ctx.app.jobs.runDue();
    expect(resetMailsTo(email)).toHaveLength(1);
    expect((await check(token)).body).toEqual({ valid: false });
    const res = await reset(token);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(EXPIRED);
  });

  it('sends nothing to a deleted account, and a link of it never works, even one whose token were left', async () => {
    const { email, user } = await signUpAndIn('Deleted Person');
    const token = await linkFor(email);
    // Only the mark (the deletion also deletes the tokens and changes the address): the link is refused by the mark.
    await ctx.database.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, user.id));
    expect((await check(token)).body).toEqual({ valid: false });
    expect((await reset(token)).body).toEqual(EXPIRED);
    await forgot(email);
    await ctx.app.jobs.runDue();
    expect(resetMailsTo(email)).toHaveLength(1);
    expect(
      await ctx.database.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, user.id)),
    ).toHaveLength(1);
  });

  it('does the same work for an existing and a missing address, so neither its answer nor its time tells', async () => {
    const account = await signUpAndIn('Same Work');
    const missing = `missing.${Date.now()}@example.com`;
    // Over HTTP: the same status, body and headers (but the request id and date).
    const [a, b] = [await forgot(account.email), await forgot(missing)];
    const headersOf = (res: typeof a) =>
      [...res.headers.keys()].filter((h) => !['date', 'x-request-id'].includes(h)).sort();
    expect([b.status, b.body, headersOf(b)]).toEqual([a.status, a.body, headersOf(a)]);
    // In the database: the same statements, and none of them looks the address up (the job does, later). Work
    // that does not depend on the address takes the same time for both, however loaded the machine is.
    const { db, captured } = await loggingDb(ctx.database);
    const recovery = createRecoveryService(db, {
      clock: () => new Date(),
      // requestReset hashes nothing.
      cost: { memoryCost: 19_456, timeCost: 1, parallelism: 1 },
      revokeUserSessions: async () => {},
    });
    await recovery.requestReset(account.email);
    const forExisting = captured.splice(0).map((q) => q.query);
    await recovery.requestReset(missing);
    const forMissing = captured.splice(0).map((q) => q.query);
    expect(forExisting.length).toBeGreaterThan(0);
    expect(forMissing).toEqual(forExisting);
    for (const query of forExisting) expect(query).not.toMatch(/\b(users|profiles)\b/);
  });

  it('refuses bad input with 400 and the form\u2019s message, queueing nothing', async () => {
    const before = (await ctx.database.db.select().from(jobs).where(eq(jobs.kind, PASSWORD_RESET_JOB))).length;
    expect((await call('POST', '/auth/forgot-password', { body: {} })).body).toEqual({
      code: 'validation_error',
      message: 'Email is required',
    });
    const notEmail = await forgot('not-an-address');
    expect(notEmail.status).toBe(400);
    expect(notEmail.body).toEqual({ code: 'validation_error', message: 'Invalid email address' });
    expect((await forgot(42)).status).toBe(400);
    const raw = await call('POST', '/auth/forgot-password', { raw: '{"email": ' });
    expect(raw.status).toBe(400);
    expect(raw.body).toEqual({ code: 'malformed_json', message: 'The request body is not valid JSON.' });
    const foreign = await call('POST', '/auth/forgot-password', {
      body: { email: 'someone@example.com' },
      origin: 'https://evil.example',
    });
    expect(foreign.status).toBe(403);
    expect((await ctx.database.db.select().from(jobs).where(eq(jobs.kind, PASSWORD_RESET_JOB))).length).toBe(before);
  });
});

describe('reset password', () => {
  it('sets the new password, ends every session of the account, and tells the owner', async () => {
    const { email, token: session1, user } = await signUpAndIn('Ben Okafor');
    const session2 = await signIn(email, STRONG_PASSWORD);
    const other = await signUpAndIn('Cara Bystander');
    const token = await linkFor(email);
    expect((await check(token)).body).toEqual({ valid: true });

    // Reading the check does not use the link up.
    expect((await check(token)).body).toEqual({ valid: true });
    const res = await reset(token);
    expect(res.status).toBe(204);

    for (const cookie of [session1, session2]) {
      expect((await call('GET', '/notifications', { cookie })).status).toBe(401);
    }
    expect((await call('GET', '/notifications', { cookie: other.token })).status).toBe(200);
    expect(await signInStatus(email, STRONG_PASSWORD)).toBe(401);
    const fresh = await signIn(email, NEW_PASSWORD);

    // The security notice: in the app and by e-mail.
    const list = await call<PageBody<Notification>>('GET', '/notifications', { cookie: fresh });
    expect(list.body.items.map((n) => [n.type, n.text])).toContainEqual([
      'password_changed',
      'The password of your RuralRoute account was changed.',
    ]);
    await ctx.app.jobs.runDue();
    expect(mailsTo(email).map((m) => m.subject)).toContain('Your password was changed');

    // Used: the same link again is refused and the password stays the new one.
    expect((await check(token)).body).toEqual({ valid: false });
    const again = await reset(token, 'Another-Fence-77');
    expect(again.status).toBe(400);
    expect(again.body).toEqual(EXPIRED);
    expect(await signInStatus(email, 'Another-Fence-77')).toBe(401);
    const [row] = await ctx.database.db
      .select()
      .from(passwordResetTokens)
      .where(eq(passwordResetTokens.userId, user.id));
    expect(row!.usedAt).not.toBeNull();
  });

  it('works for an hour: at 59 minutes yes, after 61 minutes the link has expired', async () => {
    const { email } = await signUpAndIn('Dan Late');
    const token = await linkFor(email);
    shift = 59 * MINUTE;
    expect((await check(token)).body).toEqual({ valid: true });
    shift = 61 * MINUTE;
    expect((await check(token)).body).toEqual({ valid: false });
    const res = await reset(token);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(EXPIRED);
    shift = 0;
    expect(await signInStatus(email, STRONG_PASSWORD)).toBe(200);
  });

  it('uses up every link of the account at once', async () => {
    const { email } = await signUpAndIn('Eve Twice');
    const first = await linkFor(email);
    const second = await linkFor(email);
    expect(first).not.toBe(second);
    expect((await reset(second)).status).toBe(204);
    expect((await check(first)).body).toEqual({ valid: false });
    expect((await reset(first, 'Another-Fence-77')).body).toEqual(EXPIRED);
    expect(await signInStatus(email, NEW_PASSWORD)).toBe(200);
  });

  it('lets exactly one of two simultaneous resets with the same link through', async () => {
    const { email } = await signUpAndIn('Fay Race');
    const token = await linkFor(email);
    const [a, b] = await Promise.all([reset(token, 'First-Racer-123!'), reset(token, 'Second-Racer-456!')]);
    expect([a.status, b.status].sort()).toEqual([204, 400]);
    const loser = a.status === 400 ? a : b;
    expect(loser.body).toEqual(EXPIRED);
    const winner = a.status === 204 ? 'First-Racer-123!' : 'Second-Racer-456!';
    const other = a.status === 204 ? 'Second-Racer-456!' : 'First-Racer-123!';
    expect(await signInStatus(email, winner)).toBe(200);
    expect(await signInStatus(email, other)).toBe(401);
  });

  it('refuses an unknown or malformed link: check says false, reset says expired', async () => {
    for (const token of ['x', 'A'.repeat(43), 'not a token!', '%00', 'T'.repeat(5000)]) {
      const res = await check(token);
      expect(res.status, token.slice(0, 20)).toBe(200);
      expect(res.body).toEqual({ valid: false });
    }
    const none = await call('GET', '/auth/reset-password/check');
    expect(none.status).toBe(200);
    expect(none.body).toEqual({ valid: false });
    const unknown = await reset('A'.repeat(43));
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual(EXPIRED);
    // Longer than any token: the schema's own refusal, with the same message.
    expect((await reset('T'.repeat(500))).body).toEqual({ code: 'validation_error', message: RESET_LINK_EXPIRED });
  });

  it('refuses bad input with 400 and the form\u2019s messages, changing nothing', async () => {
    const { email } = await signUpAndIn('Gus Careful');
    const token = await linkFor(email);
    const invalid = (message: string) => ({ code: 'validation_error', message });
    const post = (body: unknown) => call('POST', '/auth/reset-password', { body });

    expect((await post({ new_password: NEW_PASSWORD, confirm_password: NEW_PASSWORD })).body).toEqual(
      invalid(RESET_LINK_EXPIRED),
    );
    expect((await reset(token, 'Short-1!')).body).toEqual(invalid('Password must be at least 12 characters'));
    expect((await reset(token, 'no-uppercase-123')).body).toEqual(
      invalid('Password must contain at least one uppercase letter'),
    );
    expect((await reset(token, 'No-Digits-Here!')).body).toEqual(invalid('Password must contain at least one number'));
    expect((await reset(token, NEW_PASSWORD, 'Something-Else-1')).body).toEqual(invalid('Passwords do not match'));
    expect((await post({ token, new_password: NEW_PASSWORD })).body).toEqual(invalid('Passwords do not match'));
    expect((await reset(token, 'Password123!')).body).toEqual(invalid('This password is too common. Choose another.'));
    const raw = await call('POST', '/auth/reset-password', { raw: 'token=abc' });
    expect(raw.status).toBe(400);
    expect(raw.body).toEqual({ code: 'malformed_json', message: 'The request body is not valid JSON.' });
    const foreign = await call('POST', '/auth/reset-password', {
      body: { token, new_password: NEW_PASSWORD, confirm_password: NEW_PASSWORD },
      origin: 'https://evil.example',
    });
    expect(foreign.status).toBe(403);

    // None of these used the link or changed the password.
    expect((await check(token)).body).toEqual({ valid: true });
    expect(await signInStatus(email, STRONG_PASSWORD)).toBe(200);
  });
});

// Real PostgreSQL: the job of a reset asked just before the account is deleted runs while the deletion's transaction
// holds the account's row. It waits for it and, the address gone, stores no token and sends nothing (CI saw the job
// store its token after the deletion had deleted the account's tokens).
describe.skipIf(!process.env.DATABASE_URL)('a reset link asked during a deletion (real PostgreSQL)', () => {
  it('the job waits for the deletion, then finds no account: no token, no mail', async () => {
    const { email, user } = await signUpAndIn('Leaving Now');
    const deletion = new pg.Client({ connectionString: ctx.database.url });
    await deletion.connect();
    try {
      await deletion.query('begin');
      await deletion.query('select id from users where id = $1 for update', [user.id]);
      expect((await forgot(email)).status).toBe(200);
      const ran = ctx.app.jobs.runDue();
      await until('the reset job to wait for the row lock', async () => {
        const { rows } = await deletion.query<{ n: number }>(
          `select count(*)::int as n from pg_locks l join pg_stat_activity a using (pid)
           where not l.granted and a.query like '%for no key update%'`,
        );
        return rows[0]!.n > 0;
      });
      await deletion.query(`update users set email = $2, deleted_at = now() where id = $1`, [
        user.id,
        tombstoneEmail(user.id),
      ]);
      await deletion.query('delete from password_reset_tokens where user_id = $1', [user.id]);
      await deletion.query('commit');
      await ran;
      await until('the reset job to end', async () => (await resetJobsFor(email))[0]?.status === 'sent');
    } finally {
      await deletion.end();
    }
    expect(
      await ctx.database.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, user.id)),
    ).toEqual([]);
    expect(resetMailsTo(email)).toEqual([]);
  });
});
