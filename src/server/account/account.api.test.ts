import { and, eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ABOUT_MESSAGE,
  CURRENT_PASSWORD_REQUIRED,
  PASSWORDS_DO_NOT_MATCH,
  WRONG_CURRENT_PASSWORD,
  type AccountProfile,
  type AccountSession,
} from '../../shared/account';
import { COMMON_PASSWORD_MESSAGE } from '../../shared/password-rules';
import type { Notification } from '../../shared/notifications';
import { NUL_MESSAGE } from '../../shared/text';
import { jobs, notifications, profiles, sessions, users } from '../db/schema';
import { NOTIFICATION_EMAIL_JOB } from '../notifications';
import { STRONG_PASSWORD, setupTestApp, type CallResult } from '../test/harness';
import type { PageBody } from '../test/marketplace';
import { startSmtpSink } from '../test/smtp-sink';

const sink = await startSmtpSink();
afterAll(() => sink.close());

const { ctx, call, signUpAndIn, signIn } = setupTestApp({
  SMTP_URL: sink.url,
  AUTH_PER_IP_MAX: '100000',
  // The tests drive the job worker (app.jobs.runDue) themselves.
  JOBS_POLL_MS: '3600000',
});

const NEW_PASSWORD = 'Another-Battery-7';
const CHROME_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

/** Signs in from a browser with this User-Agent (none when omitted); returns the session token. */
async function signInWith(email: string, userAgent?: string, password = STRONG_PASSWORD): Promise<string> {
  const res = await call('POST', '/auth/sign-in', {
    body: { email, password },
    headers: userAgent ? { 'user-agent': userAgent } : {},
  });
  const token = res.headers.get('set-cookie')?.match(/rr_session=([^;]+)/)?.[1];
  if (res.status !== 200 || !token) throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(res.body)}`);
  return token;
}

/** 200 while the token signs in, 401 once its session has ended. */
const statusOf = async (token: string) => (await call('GET', '/account/profile', { cookie: token })).status;

const sessionUser = async (token: string) =>
  (await call<{ user: { full_name: string } | null }>('GET', '/auth/session', { cookie: token })).body.user;

function expectInvalid(res: CallResult, message: string) {
  expect(res.body).toEqual({ code: 'validation_error', message });
  expect(res.status).toBe(400);
}

const patchProfile = (token: string, body: unknown) =>
  call<AccountProfile>('PATCH', '/account/profile', { cookie: token, body });
const changePassword = (token: string, body: unknown) => call('POST', '/account/password', { cookie: token, body });
const listSessions = (token: string) =>
  call<{ items: AccountSession[] }>('GET', '/account/sessions', { cookie: token });

const passwordForm = (current: string, next = NEW_PASSWORD, confirm = next) => ({
  current_password: current,
  new_password: next,
  confirm_password: confirm,
});

async function storedHash(userId: string) {
  const [row] = await ctx.database.db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, userId));
  return row!.hash;
}

describe('every account route needs a session', () => {
  it.each([
    ['GET', '/account/profile'],
    ['PATCH', '/account/profile'],
    ['POST', '/account/password'],
    ['GET', '/account/sessions'],
    ['DELETE', '/account/sessions/00000000-0000-4000-8000-000000000000'],
    ['POST', '/account/sessions/sign-out-others'],
  ])('%s %s without one: 401', async (method, path) => {
    const res = await call(method, path, { body: method === 'GET' || method === 'DELETE' ? undefined : {} });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: 'unauthenticated', message: 'Please sign in to continue.' });
  });
});

describe('Profile', () => {
  it('shows my name, About you and e-mail', async () => {
    const me = await signUpAndIn('Rosa Miller');
    const res = await call<AccountProfile>('GET', '/account/profile', { cookie: me.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ full_name: 'Rosa Miller', about: null, email: me.email, pending_email: null });
  });

  it('saves the name and About you (trimmed); the session and the public profile show them at once', async () => {
    const me = await signUpAndIn('Rosa Miller');
    const other = await signUpAndIn('Ole Other');
    // The session is resolved (and cached, when the cache is on) before the change.
    expect((await sessionUser(me.token))?.full_name).toBe('Rosa Miller');

    const res = await patchProfile(me.token, {
      full_name: '  Rosa M. Miller ',
      about: ' I drive to town on Fridays. ',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      full_name: 'Rosa M. Miller',
      about: 'I drive to town on Fridays.',
      email: me.email,
      pending_email: null,
    });

    expect((await sessionUser(me.token))?.full_name).toBe('Rosa M. Miller');
    const publicProfile = await call<{ full_name: string; about: string | null }>('GET', `/users/${me.user.id}`, {
      cookie: other.token,
    });
    expect(publicProfile.body).toMatchObject({ full_name: 'Rosa M. Miller', about: 'I drive to town on Fridays.' });
    expect((await call('GET', '/account/profile', { cookie: me.token })).body).toEqual(res.body);
    const [row] = await ctx.database.db.select().from(profiles).where(eq(profiles.userId, me.user.id));
    expect(row!.updatedAt.getTime()).toBeGreaterThan(Date.now() - 60_000);
    // The other person's profile is untouched.
    expect((await call('GET', '/account/profile', { cookie: other.token })).body).toMatchObject({
      full_name: 'Ole Other',
      about: null,
    });
  });

  it('takes exactly 500 characters of About you; an empty, null or omitted one clears it', async () => {
    const me = await signUpAndIn('Rosa Miller');
    const long = 'a'.repeat(500);
    expect((await patchProfile(me.token, { full_name: 'Rosa', about: long })).body).toMatchObject({ about: long });
    for (const about of ['', '   ', null, undefined]) {
      await patchProfile(me.token, { full_name: 'Rosa', about: 'Something' });
      const res = await patchProfile(me.token, { full_name: 'Rosa', about });
      expect(res.status).toBe(200);
      expect(res.body.about).toBeNull();
    }
  });

  it.each<[string, unknown, string]>([
    ['an empty name', { full_name: '', about: 'Hi' }, 'Full name is required'],
    ['a name of spaces', { full_name: '   ' }, 'Full name is required'],
    ['no name', { about: 'Hi' }, 'Full name is required'],
    ['a null name', { full_name: null }, 'Full name is required'],
    ['a number as name', { full_name: 42 }, 'Full name is required'],
    ['a name of 101 characters', { full_name: 'n'.repeat(101) }, 'Full name must be less than 100 characters'],
    ['a NUL in the name', { full_name: 'Ro\u0000sa' }, NUL_MESSAGE],
    ['About you of 501 characters', { full_name: 'Rosa', about: 'a'.repeat(501) }, ABOUT_MESSAGE],
    ['a NUL in About you', { full_name: 'Rosa', about: 'Hi\u0000' }, NUL_MESSAGE],
    ['a number as About you', { full_name: 'Rosa', about: 5 }, ABOUT_MESSAGE],
    ['an object as About you', { full_name: 'Rosa', about: { text: 'Hi' } }, ABOUT_MESSAGE],
    ['an array body', [], 'Please check your input'],
    ['a string body', 'Rosa', 'Please check your input'],
    ['a null body', null, 'Please check your input'],
  ])('refuses %s with its message and changes nothing', async (_, body, message) => {
    const me = await signUpAndIn('Rosa Miller');
    expectInvalid(await patchProfile(me.token, body), message);
    expect((await call('GET', '/account/profile', { cookie: me.token })).body).toEqual({
      full_name: 'Rosa Miller',
      about: null,
      email: me.email,
      pending_email: null,
    });
  });

  it('refuses malformed JSON and a body that is not JSON', async () => {
    const me = await signUpAndIn('Rosa Miller');
    const bad = await call('PATCH', '/account/profile', { cookie: me.token, raw: '{"full_name": ' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ code: 'malformed_json', message: 'The request body is not valid JSON.' });
    const text = await call('PATCH', '/account/profile', {
      cookie: me.token,
      raw: 'full_name=x',
      headers: { 'content-type': 'text/plain' },
    });
    expect([400, 415]).toContain(text.status);
  });

  it('ignores fields it does not know: the e-mail and another id cannot be changed through it', async () => {
    const me = await signUpAndIn('Rosa Miller');
    const other = await signUpAndIn('Ole Other');
    const res = await patchProfile(me.token, {
      full_name: 'Rosa',
      email: 'taken-over@example.com',
      user_id: other.user.id,
      rating_count: 99,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ full_name: 'Rosa', about: null, email: me.email, pending_email: null });
    expect((await call('GET', '/account/profile', { cookie: other.token })).body).toMatchObject({
      full_name: 'Ole Other',
    });
    const [row] = await ctx.database.db.select().from(profiles).where(eq(profiles.userId, me.user.id));
    expect(row!.ratingCount).toBe(0);
  });
});

describe('Password', () => {
  it('refuses a wrong current password with wrong_password; nothing changes', async () => {
    const me = await signUpAndIn('Pat Password');
    const other = await signInWith(me.email, FIREFOX_LINUX);
    const before = await storedHash(me.user.id);

    const res = await changePassword(me.token, passwordForm('Not-my-password-1'));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'wrong_password', message: WRONG_CURRENT_PASSWORD });

    expect(await storedHash(me.user.id)).toBe(before);
    expect(await statusOf(other)).toBe(200);
    expect(await statusOf(me.token)).toBe(200);
    await signIn(me.email, STRONG_PASSWORD);
    const bell = await call<PageBody<Notification>>('GET', '/notifications', { cookie: me.token });
    expect(bell.body.items.map((n) => n.type)).not.toContain('password_changed');
  });

  it.each<[string, unknown, string]>([
    ['no current password', { new_password: NEW_PASSWORD, confirm_password: NEW_PASSWORD }, CURRENT_PASSWORD_REQUIRED],
    ['an empty current password', passwordForm(''), CURRENT_PASSWORD_REQUIRED],
    ['a number as current password', { ...passwordForm(''), current_password: 7 }, CURRENT_PASSWORD_REQUIRED],
    ['a short new password', passwordForm(STRONG_PASSWORD, 'Short-1a'), 'Password must be at least 12 characters'],
    [
      'a new password without a number',
      passwordForm(STRONG_PASSWORD, 'No-numbers-here'),
      'Password must contain at least one number',
    ],
    ['a common new password', passwordForm(STRONG_PASSWORD, 'Password123!'), COMMON_PASSWORD_MESSAGE],
    ['no new password', { current_password: STRONG_PASSWORD }, 'Password must be at least 12 characters'],
    [
      'a number as new password',
      { ...passwordForm(STRONG_PASSWORD), new_password: 123456789012 },
      'Password must be at least 12 characters',
    ],
    [
      'a different confirmation',
      passwordForm(STRONG_PASSWORD, NEW_PASSWORD, `${NEW_PASSWORD}x`),
      PASSWORDS_DO_NOT_MATCH,
    ],
    ['no confirmation', { current_password: STRONG_PASSWORD, new_password: NEW_PASSWORD }, PASSWORDS_DO_NOT_MATCH],
    ['an array body', [], 'Please check your input'],
    ['a null body', null, 'Please check your input'],
  ])('refuses %s with its message and changes nothing', async (_, body, message) => {
    const me = await signUpAndIn('Pat Password');
    const before = await storedHash(me.user.id);
    expectInvalid(await changePassword(me.token, body), message);
    expect(await storedHash(me.user.id)).toBe(before);
  });

  it('after 5 wrong current passwords answers 429 like sign-in, before checking (even the right one)', async () => {
    const me = await signUpAndIn('Pat Password');
    for (let i = 0; i < 5; i++)
      expect((await changePassword(me.token, passwordForm(`Wrong-password-${i}`))).body).toMatchObject({
        code: 'wrong_password',
      });
    const before = await storedHash(me.user.id);
    const res = await changePassword(me.token, passwordForm(STRONG_PASSWORD));
    expect(res.status).toBe(429);
    expect(res.body).toEqual({
      code: 'too_many_requests',
      message: 'Too many attempts. Please wait 15 minutes and try again.',
    });
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(14 * 60);
    expect(await storedHash(me.user.id)).toBe(before);
    // Counted per account: another person is not affected.
    const other = await signUpAndIn('Ole Other');
    expect((await changePassword(other.token, passwordForm('Wrong-password-x'))).status).toBe(400);
  });

  it('a right current password forgets the earlier wrong ones', async () => {
    const me = await signUpAndIn('Pat Password');
    for (let i = 0; i < 4; i++) expect((await changePassword(me.token, passwordForm(`Wrong-${i}`))).status).toBe(400);
    expect((await changePassword(me.token, passwordForm(STRONG_PASSWORD))).status).toBe(204);
    for (let i = 0; i < 5; i++) expect((await changePassword(me.token, passwordForm(`Wrong-${i}`))).status).toBe(400);
    expect((await changePassword(me.token, passwordForm(NEW_PASSWORD, 'Third-Password-3'))).status).toBe(429);
  });

  it('changes it: other sessions end, this one stays, the new password signs in, the old one not, and I am told', async () => {
    const me = await signUpAndIn('Pat Password');
    const others = [await signInWith(me.email, FIREFOX_LINUX), await signInWith(me.email, SAFARI_IPHONE)];
    const someoneElse = await signUpAndIn('Ole Other');
    for (const token of others) expect(await statusOf(token)).toBe(200);
    const mailsBefore = sink.mails.length;

    const res = await changePassword(me.token, passwordForm(STRONG_PASSWORD));
    expect(res.status).toBe(204);

    for (const token of others) expect(await statusOf(token)).toBe(401);
    expect(await statusOf(me.token)).toBe(200);
    expect((await listSessions(me.token)).body.items.map((s) => s.current)).toEqual([true]);
    expect(await statusOf(someoneElse.token)).toBe(200);

    const old = await call('POST', '/auth/sign-in', { body: { email: me.email, password: STRONG_PASSWORD } });
    expect(old.status).toBe(401);
    expect(await statusOf(await signInWith(me.email, CHROME_WINDOWS, NEW_PASSWORD))).toBe(200);

    // The in-app notice, and its e-mail (always sent: a security notice).
    const bell = await call<PageBody<Notification>>('GET', '/notifications', { cookie: me.token });
    const notice = bell.body.items.find((n) => n.type === 'password_changed');
    expect(notice?.text).toBe('The password of your RuralRoute account was changed.');
    const rows = await ctx.database.db
      .select({ id: notifications.id })
      .from(notifications)
      .where(and(eq(notifications.userId, me.user.id), eq(notifications.type, 'password_changed')));
    expect(rows).toHaveLength(1);
    const mailJobs = await ctx.database.db
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(eq(jobs.kind, NOTIFICATION_EMAIL_JOB), sql`${jobs.payload} ->> 'notification_id' = ${rows[0]!.id}`));
    expect(mailJobs).toHaveLength(1);
    await ctx.app.jobs.runDue();
    // (The sign-ins from new browsers above are mailed too.)
    const mail = sink.mails.slice(mailsBefore).find((m) => m.to.includes(me.email) && /password/i.test(m.subject));
    expect(mail?.subject).toBe('Your password was changed');
    expect(mail?.text).toContain('The password of your RuralRoute account was changed.');
    expect(sink.mails.slice(mailsBefore).filter((m) => m.to.includes(someoneElse.email))).toEqual([]);
  });
});

describe('Sessions', () => {
  it('lists my live browsers, most recently active first, with their browser and this device marked', async () => {
    const me = await signUpAndIn('Sam Sessions'); // the helper's session sends no User-Agent
    await signInWith(me.email, CHROME_WINDOWS);
    const firefox = await signInWith(me.email, FIREFOX_LINUX);
    const current = await signInWith(me.email, SAFARI_IPHONE);
    const someoneElse = await signUpAndIn('Ole Other');
    // Activity in an order other than the sign-ins' (under the 5-minute touch, so listing moves none of them).
    const secondsAgo = (ua: string | null) =>
      ua === CHROME_WINDOWS ? 10 : ua === SAFARI_IPHONE ? 20 : ua === FIREFOX_LINUX ? 30 : 40;
    const now = Date.now();
    const rows = await ctx.database.db
      .select({ id: sessions.id, createdAt: sessions.createdAt, userAgent: sessions.userAgent })
      .from(sessions)
      .where(eq(sessions.userId, me.user.id));
    expect(rows).toHaveLength(4);
    for (const row of rows)
      await ctx.database.db
        .update(sessions)
        .set({ lastSeenAt: new Date(now - secondsAgo(row.userAgent) * 1000) })
        .where(eq(sessions.id, row.id));

    const res = await listSessions(current);
    expect(res.status).toBe(200);
    expect(res.body.items.map(({ browser, current: isCurrent }) => ({ browser, current: isCurrent }))).toEqual([
      { browser: 'Chrome on Windows', current: false },
      { browser: 'Safari on iOS', current: true },
      { browser: 'Firefox on Linux', current: false },
      { browser: 'An unknown browser', current: false },
    ]);
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const item of res.body.items) {
      const row = byId.get(item.id)!;
      expect(item.signed_in_at).toBe(row.createdAt.toISOString());
      expect(item.last_active_at).toBe(new Date(now - secondsAgo(row.userAgent) * 1000).toISOString());
    }
    // Seen from another of my browsers, that one is current.
    expect((await listSessions(firefox)).body.items.filter((s) => s.current).map((s) => s.browser)).toEqual([
      'Firefox on Linux',
    ]);
    // Nobody else's sessions are listed, and mine are not in theirs.
    const theirs = (await listSessions(someoneElse.token)).body.items;
    expect(theirs).toHaveLength(1);
    expect(theirs.some((s) => byId.has(s.id))).toBe(false);
  });

  it('leaves out sessions past their end or idle too long', async () => {
    const me = await signUpAndIn('Sam Sessions');
    await signInWith(me.email, CHROME_WINDOWS);
    await signInWith(me.email, FIREFOX_LINUX);
    const ids = (await listSessions(me.token)).body.items.map((s) => s.id);
    expect(ids).toHaveLength(3);
    await ctx.database.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(and(eq(sessions.userId, me.user.id), eq(sessions.userAgent, CHROME_WINDOWS)));
    await ctx.database.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - (ctx.env.SESSION_IDLE_MINUTES * 60 + 5) * 1000) })
      .where(and(eq(sessions.userId, me.user.id), eq(sessions.userAgent, FIREFOX_LINUX)));
    const items = (await listSessions(me.token)).body.items;
    expect(items.map((s) => s.current)).toEqual([true]);
  });

  it("refuses to end another person's session, my current one, or an unknown or malformed id: 404, all still work", async () => {
    const me = await signUpAndIn('Sam Sessions');
    const victim = await signUpAndIn('Vic Victim');
    const [victimSession] = (await listSessions(victim.token)).body.items;
    const [mine] = (await listSessions(me.token)).body.items;
    const notFound = { code: 'not_found', message: 'Session not found.' };
    for (const id of [victimSession!.id, mine!.id, '00000000-0000-4000-8000-000000000000', 'not-a-uuid', '1']) {
      const res = await call('DELETE', `/account/sessions/${id}`, { cookie: me.token });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(notFound);
    }
    expect(await statusOf(victim.token)).toBe(200);
    expect(await statusOf(me.token)).toBe(200);
  });

  it('ends one of my other sessions: its cookie gets 401 at once, the rest keep working', async () => {
    const me = await signUpAndIn('Sam Sessions');
    const doomed = await signInWith(me.email, CHROME_WINDOWS);
    const kept = await signInWith(me.email, FIREFOX_LINUX);
    // Resolved (and cached, where the session cache is on) before the sign-out.
    expect(await statusOf(doomed)).toBe(200);
    const doomedId = (await listSessions(doomed)).body.items.find((s) => s.current)!.id;

    const res = await call('DELETE', `/account/sessions/${doomedId}`, { cookie: me.token });
    expect(res.status).toBe(204);
    expect(await statusOf(doomed)).toBe(401);
    expect(await sessionUser(doomed)).toBeNull();
    expect(await statusOf(kept)).toBe(200);
    expect(await statusOf(me.token)).toBe(200);
    expect((await listSessions(me.token)).body.items.map((s) => s.id)).not.toContain(doomedId);
    expect((await call('DELETE', `/account/sessions/${doomedId}`, { cookie: me.token })).status).toBe(404);
  });

  it('signs out of all other sessions and says how many ended', async () => {
    const me = await signUpAndIn('Sam Sessions');
    const others = [
      await signInWith(me.email, CHROME_WINDOWS),
      await signInWith(me.email, FIREFOX_LINUX),
      await signInWith(me.email),
    ];
    const someoneElse = await signUpAndIn('Ole Other');
    for (const token of others) expect(await statusOf(token)).toBe(200);

    const res = await call('POST', '/account/sessions/sign-out-others', { cookie: me.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ count: 3 });
    for (const token of others) expect(await statusOf(token)).toBe(401);
    expect(await statusOf(me.token)).toBe(200);
    expect(await statusOf(someoneElse.token)).toBe(200);
    expect((await listSessions(me.token)).body.items.map((s) => s.current)).toEqual([true]);

    expect((await call('POST', '/account/sessions/sign-out-others', { cookie: me.token, body: {} })).body).toEqual({
      count: 0,
    });
  });
});
