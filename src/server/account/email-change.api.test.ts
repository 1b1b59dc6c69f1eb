import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  CURRENT_PASSWORD_REQUIRED,
  EMAIL_LINK_EXPIRED,
  SAME_EMAIL_MESSAGE,
  WRONG_CURRENT_PASSWORD,
  type AccountProfile,
} from '../../shared/account';
import type { Notification } from '../../shared/notifications';
import { RESET_MAIL_SUBJECT } from '../auth/recovery';
import { emailChanges, jobs } from '../db/schema';
import { STRONG_PASSWORD, setupTestApp, type CallResult } from '../test/harness';
import type { PageBody } from '../test/marketplace';
import { startSmtpSink, type ReceivedMail } from '../test/smtp-sink';
import { CONFIRM_EMAIL_SUBJECT, EMAIL_IN_USE_SUBJECT } from './email-mail';
import { EMAIL_CHANGE_JOB } from './email-service';

const APP = 'https://rural.example';
const HOUR = 60 * 60_000;
const EXPIRED = { code: 'email_link_expired', message: EMAIL_LINK_EXPIRED };

/** The app's clock runs `shift` ahead of the wall clock: a link's 24 hours pass without waiting. */
let shift = 0;
const clock = () => new Date(Date.now() + shift);
afterEach(() => {
  shift = 0;
});
/**
 * Runs `work` with the app's clock an hour behind: the jobs it queues (due at the database's now) are not yet due
 * for the worker, which a NOTIFY would otherwise wake at once. The next runDue() at the normal time runs them.
 */
async function heldJobs<T>(work: () => Promise<T>): Promise<T> {
  shift = -HOUR;
  try {
    return await work();
  } finally {
    shift = 0;
  }
}

const sink = await startSmtpSink();
afterAll(() => sink.close());

// Limits out of the way (identity and sign-in limits have their own tests): the timing test asks up to 190 times.
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
const fresh = (name: string) => `${name}.${Date.now()}.${Math.random().toString(36).slice(2, 8)}@example.com`;

const requestChange = (token: string, new_email: unknown, current_password: unknown = STRONG_PASSWORD, code?: string) =>
  call<{ pending_email: string }>('POST', '/account/email', {
    cookie: token,
    body: { new_email, current_password, ...(code === undefined ? {} : { code }) },
  });
const confirm = (token: unknown) => call<{ email: string }>('POST', '/auth/confirm-email', { body: { token } });
const profileOf = async (token: string) =>
  (await call<AccountProfile>('GET', '/account/profile', { cookie: token })).body;
const signInStatus = async (email: string, password = STRONG_PASSWORD) =>
  (await call('POST', '/auth/sign-in', { body: { email, password } })).status;
const changeJobs = () => ctx.database.db.select().from(jobs).where(eq(jobs.kind, EMAIL_CHANGE_JOB));

/** The token of the confirmation link in the mail (checked to be the app's confirm-email page). */
function tokenOf(mail: ReceivedMail): string {
  const link = mail.text.match(/https:\/\/\S+/)?.[0];
  expect(link).toBeDefined();
  const url = new URL(link!);
  expect(url.origin + url.pathname).toBe(`${APP}/confirm-email`);
  return url.searchParams.get('token')!;
}

/** Asks to change to `address` and runs the job; returns the token of the one new confirmation mail. */
async function linkFor(token: string, address: string): Promise<string> {
  const before = mailsTo(address).length;
  const res = await requestChange(token, address);
  expect(res.status).toBe(202);
  await ctx.app.jobs.runDue();
  const mails = mailsTo(address);
  expect(mails).toHaveLength(before + 1);
  expect(mails.at(-1)!.subject).toBe(CONFIRM_EMAIL_SUBJECT);
  return tokenOf(mails.at(-1)!);
}

function expectInvalid(res: CallResult, message: string) {
  expect(res.body).toEqual({ code: 'validation_error', message });
  expect(res.status).toBe(400);
}

describe('asking to change the address', () => {
  it('answers 202 with the pending address, shows it on the profile, and mails the link to the new address', async () => {
    const me = await signUpAndIn('Nora Newmail');
    const next = fresh('nora.new');
    const res = await requestChange(me.token, `  ${next.toUpperCase()} `);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ pending_email: next });
    expect(await profileOf(me.token)).toMatchObject({ email: me.email, pending_email: next });

    await ctx.app.jobs.runDue();
    const [mail, ...more] = mailsTo(next);
    expect(more).toEqual([]);
    expect(mail!.to).toEqual([next]);
    expect(mail!.subject).toBe(CONFIRM_EMAIL_SUBJECT);
    expect(mail!.headers['list-unsubscribe']).toBeUndefined();
    expect(mail!.text).toContain('valid for 24 hours');
    expect(mail!.text).toContain("If it wasn't you, ignore this e-mail: nothing changes.");
    const token = tokenOf(mail!);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(mail!.html).toContain(`<a href="${APP}/confirm-email?token=${token}">`);
    const [job] = await ctx.database.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, EMAIL_CHANGE_JOB), sql`${jobs.status} = 'sent'`))
      .orderBy(sql`${jobs.id} desc`)
      .limit(1);
    expect(mail!.messageId).toBe(`<rr-email-change-${job!.id}@rural.example>`);

    // Only hashes are stored; the request's row and the link's row, 24 hours each.
    const rows = await ctx.database.db.select().from(emailChanges).where(eq(emailChanges.userId, me.user.id));
    expect(rows).toHaveLength(2);
    expect(rows.map((r) => r.tokenHash)).toContain(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(token);
    for (const row of rows) {
      expect(row.newEmail).toBe(next);
      expect(row.usedAt).toBeNull();
      expect(row.expiresAt.getTime() - rows[0]!.createdAt.getTime()).toBe(24 * HOUR);
    }
    // Nothing has changed yet.
    expect(await signInStatus(me.email)).toBe(200);
    expect(await signInStatus(next)).toBe(401);
  });

  it('answers a taken address exactly the same; its owner is told, and no link exists', async () => {
    const me = await signUpAndIn('Tess Taken');
    const owner = await signUpAndIn('Olga Owner');
    const free = fresh('tess.free');
    const jobsBefore = (await changeJobs()).length;
    const ownerMails = mailsTo(owner.email).length;
    // All asked before any job runs: only the last request's job finds its change still pending.
    await heldJobs(async () => {
      const [taken, open] = [await requestChange(me.token, owner.email), await requestChange(me.token, free)];
      expect(taken.status).toBe(202);
      expect(open.status).toBe(202);
      expect(taken.body).toEqual({ pending_email: owner.email });
      expect(Object.keys(taken.body)).toEqual(Object.keys(open.body));
      expect(taken.headers.get('content-type')).toBe(open.headers.get('content-type'));
      // One job each, the same work; the second replaced the first.
      expect((await changeJobs()).length).toBe(jobsBefore + 2);
      expect((await profileOf(me.token)).pending_email).toBe(free);

      // Asked again for the taken one: it shows as pending, like any other.
      expect((await requestChange(me.token, owner.email)).body).toEqual({ pending_email: owner.email });
      expect((await profileOf(me.token)).pending_email).toBe(owner.email);
    });
    await ctx.app.jobs.runDue();
    const told = mailsTo(owner.email).slice(ownerMails);
    expect(told.map((m) => m.subject)).toEqual([EMAIL_IN_USE_SUBJECT]);
    expect(told[0]!.text).toContain(
      'Someone tried to use this e-mail address for a RuralRoute account, but a RuralRoute account with this address already exists.',
    );
    expect(told[0]!.text).toContain('If this was you, sign in with this address instead:');
    expect(told[0]!.text).toContain(`${APP}/auth`);
    expect(told[0]!.text).not.toContain('confirm-email');
    // The replaced request for the free address sent nothing; only the request's own row exists (no usable link).
    expect(mailsTo(free)).toEqual([]);
    const rows = await ctx.database.db.select().from(emailChanges).where(eq(emailChanges.userId, me.user.id));
    expect(rows.map((r) => r.newEmail)).toEqual([owner.email]);
    expect(await signInStatus(owner.email)).toBe(200);
  });

  it('takes about the same time for a free and a taken address', async () => {
    const me = await signUpAndIn('Tim Timing');
    const owners = await Promise.all(Array.from({ length: 4 }, (_, i) => signUpAndIn(`Owner ${i}`)));
    const timed = async (address: string) => {
      const start = performance.now();
      const res = await requestChange(me.token, address);
      const ms = performance.now() - start;
      expect(res.status).toBe(202);
      return ms;
    };
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
    /** One round of 30 interleaved pairs: the two medians, and whether they are within 20% (or 5 ms) of each other. */
    async function round() {
      const taken: number[] = [];
      const free: number[] = [];
      for (let i = 0; i < 30; i++) {
        // Each pair in a random order, so drift of a shared machine falls on both alike.
        const t = () => timed(owners[i % owners.length]!.email).then((ms) => taken.push(ms));
        const f = () => timed(fresh(`free${i}`)).then((ms) => free.push(ms));
        for (const next of Math.random() < 0.5 ? [t, f] : [f, t]) await next();
      }
      const [mt, mf] = [median(taken), median(free)];
      return {
        text: `taken ${mt.toFixed(1)} ms, free ${mf.toFixed(1)} ms`,
        ok: Math.abs(mt - mf) <= Math.max(0.2 * Math.max(mt, mf), 5),
      };
    }
    // The jobs wait until the end: what a job does differs by design (a link or a notice), the request must not.
    // A machine shared with other test files can be busy for a whole round: up to three rounds, one must agree. A
    // real difference (a lookup on one path only) shows in every round.
    const rounds = await heldJobs(async () => {
      for (let i = 0; i < 5; i++) {
        await timed(owners[i % owners.length]!.email);
        await timed(fresh(`warm${i}`));
      }
      const done: Awaited<ReturnType<typeof round>>[] = [];
      while (done.length < 3 && !done.some((r) => r.ok)) done.push(await round());
      return done;
    });
    await ctx.app.jobs.runDue();
    expect(
      rounds.some((r) => r.ok),
      `medians: ${rounds.map((r) => r.text).join('; ')}`,
    ).toBe(true);
  });

  it('refuses a wrong password (counted like sign-in failures) and the current address, queueing nothing', async () => {
    const me = await signUpAndIn('Walt Wrong');
    const before = (await changeJobs()).length;
    const wrong = await requestChange(me.token, fresh('walt'), 'Not-My-Password-1');
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ code: 'wrong_password', message: WRONG_CURRENT_PASSWORD });
    expectInvalid(await requestChange(me.token, ` ${me.email.toUpperCase()}`), SAME_EMAIL_MESSAGE);
    // The current address is refused even with a wrong password: it tells nothing new.
    expectInvalid(await requestChange(me.token, me.email, 'Not-My-Password-1'), SAME_EMAIL_MESSAGE);
    expect((await changeJobs()).length).toBe(before);
    expect((await profileOf(me.token)).pending_email).toBeNull();
  });

  it.each([
    ['no address', { current_password: STRONG_PASSWORD }, 'Email is required'],
    ['an empty address', { new_email: ' ', current_password: STRONG_PASSWORD }, 'Email is required'],
    ['not an address', { new_email: 'not-an-address', current_password: STRONG_PASSWORD }, 'Invalid email address'],
    ['a number', { new_email: 42, current_password: STRONG_PASSWORD }, 'Email is required'],
    ['no password', { new_email: 'someone@example.com' }, CURRENT_PASSWORD_REQUIRED],
    ['an empty password', { new_email: 'someone@example.com', current_password: '' }, CURRENT_PASSWORD_REQUIRED],
    ['an array body', [], 'Please check your input'],
    ['a null body', null, 'Please check your input'],
  ])('refuses %s with its message', async (_, body, message) => {
    const me = await signUpAndIn('Ivy Input');
    expectInvalid(await call('POST', '/account/email', { cookie: me.token, body }), message);
    expect((await profileOf(me.token)).pending_email).toBeNull();
  });

  it('refuses malformed JSON, no session, and a foreign origin', async () => {
    const me = await signUpAndIn('Ivy Input');
    const raw = await call('POST', '/account/email', { cookie: me.token, raw: '{"new_email": ' });
    expect(raw.status).toBe(400);
    expect(raw.body).toEqual({ code: 'malformed_json', message: 'The request body is not valid JSON.' });
    const body = { new_email: fresh('ivy'), current_password: STRONG_PASSWORD };
    expect((await call('POST', '/account/email', { body })).status).toBe(401);
    expect((await call('DELETE', '/account/email')).status).toBe(401);
    const foreign = await call('POST', '/account/email', { cookie: me.token, body, origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect((await profileOf(me.token)).pending_email).toBeNull();
  });
});

describe('opening the link', () => {
  it('changes the address, tells the OLD address, keeps sessions, and moves sign-in and reset to the new one', async () => {
    const me = await signUpAndIn('Cleo Change');
    const other = await signIn(me.email, STRONG_PASSWORD);
    const next = fresh('cleo.new');
    const token = await linkFor(me.token, next);

    const res = await confirm(token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ email: next });
    expect(await profileOf(me.token)).toMatchObject({ email: next, pending_email: null });
    for (const cookie of [me.token, other]) {
      const session = await call<{ user: { email: string } }>('GET', '/auth/session', { cookie });
      expect(session.body.user.email).toBe(next);
    }

    // The security notice: in the app, and mailed to the old address (not the new one).
    const list = await call<PageBody<Notification>>('GET', '/notifications', { cookie: me.token });
    expect(list.body.items.map((n) => [n.type, n.text])).toContainEqual([
      'email_changed',
      `The e-mail address of your RuralRoute account was changed to ${next}.`,
    ]);
    await ctx.app.jobs.runDue();
    const notice = mailsTo(me.email).filter((m) => m.subject === 'Your e-mail address was changed');
    expect(notice).toHaveLength(1);
    expect(notice[0]!.to).toEqual([me.email]);
    expect(notice[0]!.text).toContain(`changed to ${next}`);
    expect(mailsTo(next).map((m) => m.subject)).toEqual([CONFIRM_EMAIL_SUBJECT]);

    expect(await signInStatus(me.email)).toBe(401);
    expect(await signInStatus(next)).toBe(200);
    const resetsToOld = mailsTo(me.email).filter((m) => m.subject === RESET_MAIL_SUBJECT).length;
    await call('POST', '/auth/forgot-password', { body: { email: me.email } });
    await call('POST', '/auth/forgot-password', { body: { email: next } });
    await ctx.app.jobs.runDue();
    expect(mailsTo(me.email).filter((m) => m.subject === RESET_MAIL_SUBJECT)).toHaveLength(resetsToOld);
    expect(mailsTo(next).filter((m) => m.subject === RESET_MAIL_SUBJECT)).toHaveLength(1);

    // Once only.
    const again = await confirm(token);
    expect(again.status).toBe(400);
    expect(again.body).toEqual(EXPIRED);
  });

  it('uses up the reset links mailed to the old address', async () => {
    const me = await signUpAndIn('Rex Reset');
    await call('POST', '/auth/forgot-password', { body: { email: me.email } });
    await ctx.app.jobs.runDue();
    const resetLink = mailsTo(me.email)
      .find((m) => m.subject === RESET_MAIL_SUBJECT)!
      .text.match(/token=(\S+)/)![1]!;
    const check = async () =>
      (await call<{ valid: boolean }>('GET', `/auth/reset-password/check?token=${resetLink}`)).body.valid;
    expect(await check()).toBe(true);
    expect((await confirm(await linkFor(me.token, fresh('rex')))).status).toBe(200);
    expect(await check()).toBe(false);
  });

  it('works for 24 hours: at 23 hours yes, after 24 the link has expired and nothing is pending', async () => {
    const me = await signUpAndIn('Lena Late');
    const late = await linkFor(me.token, fresh('lena.late'));
    shift = 24 * HOUR + 60_000;
    expect((await profileOf(me.token)).pending_email).toBeNull();
    expect((await confirm(late)).body).toEqual(EXPIRED);
    shift = 0;
    expect((await profileOf(me.token)).email).toBe(me.email);

    const next = fresh('lena.ontime');
    const onTime = await linkFor(me.token, next);
    shift = 23 * HOUR;
    expect((await confirm(onTime)).body).toEqual({ email: next });
  });

  it('a newer request and Cancel change each stop the earlier link', async () => {
    const me = await signUpAndIn('Pia Pending');
    const first = await linkFor(me.token, fresh('pia.first'));
    const secondAddress = fresh('pia.second');
    const second = await linkFor(me.token, secondAddress);
    expect((await confirm(first)).body).toEqual(EXPIRED);

    const cancel = await call('DELETE', '/account/email', { cookie: me.token });
    expect(cancel.status).toBe(204);
    expect((await profileOf(me.token)).pending_email).toBeNull();
    expect((await confirm(second)).body).toEqual(EXPIRED);
    expect((await profileOf(me.token)).email).toBe(me.email);
    // Nothing pending: cancelling again is fine.
    expect((await call('DELETE', '/account/email', { cookie: me.token })).status).toBe(204);

    // Cancelled before its job ran: no mail at all.
    const third = fresh('pia.third');
    await heldJobs(async () => {
      expect((await requestChange(me.token, third)).status).toBe(202);
      expect((await call('DELETE', '/account/email', { cookie: me.token })).status).toBe(204);
    });
    await ctx.app.jobs.runDue();
    expect(mailsTo(third)).toEqual([]);
    expect(mailsTo(secondAddress)).toHaveLength(1);
  });

  it('answers 409 when another account took the address meanwhile, changing nothing', async () => {
    const me = await signUpAndIn('Fred First');
    const next = fresh('fred.next');
    const token = await linkFor(me.token, next);
    const up = await call('POST', '/auth/sign-up', {
      body: { email: next, password: STRONG_PASSWORD, full_name: 'Quick Taker', age_confirmed: true },
    });
    expect(up.status).toBe(201);
    const res = await confirm(token);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      code: 'email_taken',
      message: 'An account with this email already exists. Please sign in instead.',
    });
    expect(await profileOf(me.token)).toMatchObject({ email: me.email, pending_email: next });
    expect(mailsTo(me.email).filter((m) => m.subject === 'Your e-mail address was changed')).toEqual([]);
  });

  it('lets exactly one of two simultaneous confirmations with the same link through', async () => {
    const me = await signUpAndIn('Rae Race');
    const next = fresh('rae');
    const token = await linkFor(me.token, next);
    const [a, b] = await Promise.all([confirm(token), confirm(token)]);
    expect([a.status, b.status].sort()).toEqual([200, 400]);
    const notices = await ctx.database.db.execute(
      sql`select count(*)::int as n from notifications where user_id = ${me.user.id} and type = 'email_changed'`,
    );
    expect((notices as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(1);
  });

  it('refuses an unknown, malformed or missing link without a session or with one', async () => {
    const me = await signUpAndIn('Uma Unknown');
    for (const token of ['x', 'A'.repeat(43), 'not a token!', '%00']) {
      const res = await confirm(token);
      expect(res.status, token).toBe(400);
      expect(res.body).toEqual(EXPIRED);
    }
    const signedIn = await call('POST', '/auth/confirm-email', { cookie: me.token, body: { token: 'A'.repeat(43) } });
    expect(signedIn.body).toEqual(EXPIRED);
    expectInvalid(await confirm('T'.repeat(500)), EMAIL_LINK_EXPIRED);
    expectInvalid(await call('POST', '/auth/confirm-email', { body: {} }), EMAIL_LINK_EXPIRED);
    expectInvalid(await confirm(42), EMAIL_LINK_EXPIRED);
    expectInvalid(await call('POST', '/auth/confirm-email', { body: [] }), 'Please check your input');
    const raw = await call('POST', '/auth/confirm-email', { raw: 'token=abc' });
    expect(raw.body).toEqual({ code: 'malformed_json', message: 'The request body is not valid JSON.' });
    const foreign = await call('POST', '/auth/confirm-email', {
      body: { token: 'A'.repeat(43) },
      origin: 'https://evil.example',
    });
    expect(foreign.status).toBe(403);
  });
});
