import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { SessionInfo } from '../../shared/auth';
import { INPUT_FALLBACK_MESSAGE } from '../../shared/marketplace';
import {
  CODE_REQUIRED,
  REAUTH_REQUIRED,
  WRONG_CODE,
  WRONG_PASSWORD,
  type RecoveryCodes,
  type TwoFactorStatus,
} from '../../shared/two-factor';
import { notifications, recoveryCodes, sessions, twoFactorSecrets } from '../db/schema';
import { hashToken } from '../auth/tokens';
import { STRONG_PASSWORD, setupTestApp, type CallResult } from '../test/harness';
import { startSmtpSink } from '../test/smtp-sink';
import { frozenClock, STEP_MS, twoFactorSteps } from '../test/two-factor';

const time = frozenClock();
afterEach(time.reset);
const sink = await startSmtpSink();
afterAll(() => sink.close());

const { ctx, call, signUpAndIn, signIn } = setupTestApp(
  { SMTP_URL: sink.url, AUTH_PER_IP_MAX: '100000', JOBS_POLL_MS: '3600000' },
  { clock: time.clock },
);
const { setUp, turnOn, giveCode } = twoFactorSteps(call, (secret) => time.code(secret));

const MINUTE = 60_000;
const PENDING = { user: null, session: null, two_factor_pending: true };
const WRONG = { code: 'wrong_code', message: WRONG_CODE };
const REAUTH = { code: 'reauth_required', message: REAUTH_REQUIRED };

const status = async (token: string) =>
  (await call<TwoFactorStatus>('GET', '/account/two-factor', { cookie: token })).body;
const enable = (token: string, body: unknown) =>
  call<RecoveryCodes>('POST', '/account/two-factor/enable', { cookie: token, body });
const disable = (token: string, body: unknown) => call('POST', '/account/two-factor/disable', { cookie: token, body });
const newCodes = (token: string) =>
  call<RecoveryCodes>('POST', '/account/two-factor/recovery-codes', { cookie: token });
const confirmIdentity = (token: string, body: unknown) =>
  call('POST', '/account/confirm-identity', { cookie: token, body });
const sessionOf = async (token: string) => (await call<SessionInfo>('GET', '/auth/session', { cookie: token })).body;

/** Runs the queued jobs: the app's clock is stopped, so it first moves past when they were queued. */
async function deliverMail() {
  time.advance(MINUTE);
  await ctx.app.jobs.runDue();
}

function expectState(res: CallResult) {
  expect(res.status).toBe(409);
  expect(res.body).toMatchObject({ code: 'two_factor_state' });
}

async function sessionRow(token: string) {
  const [row] = await ctx.database.db
    .select()
    .from(sessions)
    .where(eq(sessions.tokenHash, hashToken(token)));
  return row;
}

describe('every two-factor route needs a signed-in session', () => {
  it.each([
    ['GET', '/account/two-factor'],
    ['POST', '/account/two-factor/setup'],
    ['POST', '/account/two-factor/enable'],
    ['POST', '/account/two-factor/disable'],
    ['POST', '/account/two-factor/recovery-codes'],
  ])('%s %s without one: 401', async (method, path) => {
    const res = await call(method, path, { body: method === 'GET' ? undefined : {} });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: 'unauthenticated', message: 'Please sign in to continue.' });
  });
});

describe('status and set-up', () => {
  it('is off at first; the sign-in counts as a check for 10 minutes', async () => {
    const me = await signUpAndIn('Sam Setup');
    expect(await status(me.token)).toEqual({ enabled: false, recovery_codes_left: 0, recently_checked: true });
    time.advance(10 * MINUTE - 1000);
    expect((await status(me.token)).recently_checked).toBe(true);
    time.advance(1000);
    expect((await status(me.token)).recently_checked).toBe(false);
  });

  it('gives a new secret, its otpauth URL and QR code; nothing is on until it is confirmed', async () => {
    const me = await signUpAndIn('Sam Setup');
    const setup = await setUp(me.token);
    expect(setup.secret).toMatch(/^[A-Z2-7]{16,}$/);
    const url = new URL(setup.otpauth_url);
    expect(url.protocol).toBe('otpauth:');
    expect(url.host).toBe('totp');
    expect(decodeURIComponent(url.pathname)).toBe(`/RuralRoute:${me.email}`);
    expect(url.searchParams.get('secret')).toBe(setup.secret);
    expect(url.searchParams.get('issuer')).toBe('RuralRoute');
    expect(setup.qr_code).toMatch(/^data:image\/svg\+xml;base64,/);
    const svg = Buffer.from(setup.qr_code.split(',')[1]!, 'base64').toString();
    expect(svg).toMatch(/^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(await status(me.token)).toMatchObject({ enabled: false });
    // Signing in still needs no code.
    expect(
      (await call('POST', '/auth/sign-in', { body: { email: me.email, password: STRONG_PASSWORD } })).body,
    ).not.toHaveProperty('two_factor_pending');
  });

  it('replaces an unfinished set-up: only the newest secret confirms', async () => {
    const me = await signUpAndIn('Sam Setup');
    const first = await setUp(me.token);
    const second = await setUp(me.token);
    expect(second.secret).not.toBe(first.secret);
    expect((await enable(me.token, { code: await time.code(first.secret) })).body).toEqual(WRONG);
    expect((await enable(me.token, { code: await time.code(second.secret) })).status).toBe(200);
  });

  it("needs a recent check: 'Confirm it's you' with the password lets it through", async () => {
    const me = await signUpAndIn('Sam Setup');
    time.advance(11 * MINUTE);
    const refused = await call('POST', '/account/two-factor/setup', { cookie: me.token });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(REAUTH);
    expect((await confirmIdentity(me.token, { password: 'Wrong-Horse-1' })).body).toEqual({
      code: 'wrong_password',
      message: WRONG_PASSWORD,
    });
    // Without two-factor, no code is asked for.
    expect((await confirmIdentity(me.token, { password: STRONG_PASSWORD })).status).toBe(204);
    expect((await call('POST', '/account/two-factor/setup', { cookie: me.token })).status).toBe(200);
  });
});

describe('turning it on', () => {
  it('takes a code of the new secret: ten recovery codes, this session aal2, a notice and its e-mail', async () => {
    const me = await signUpAndIn('Erin Enable');
    const bystander = await signUpAndIn('Bea Bystander');
    const { secret } = await setUp(me.token);
    const mailsBefore = sink.mails.length;
    const res = await enable(me.token, { code: await time.code(secret) });
    expect(res.status).toBe(200);
    const codes = res.body.recovery_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    // Only their hashes are stored.
    const stored = await ctx.database.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, me.user.id));
    expect(stored).toHaveLength(10);
    for (const row of stored) expect(codes).not.toContain(row.codeHash);

    expect(await status(me.token)).toEqual({ enabled: true, recovery_codes_left: 10, recently_checked: true });
    expect((await sessionOf(me.token)).session?.aal).toBe('aal2');
    expect(await sessionRow(me.token)).toMatchObject({ aal: 'aal2', verifiedAt: time.clock() });

    const notices = await ctx.database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, me.user.id), eq(notifications.type, 'two_factor_enabled')));
    expect(notices).toHaveLength(1);
    await deliverMail();
    const mails = sink.mails.slice(mailsBefore);
    const mail = mails.find((m) => m.to.includes(me.email));
    expect(mail?.subject).toBe('Two-factor authentication turned on');
    expect(mail?.text).toContain('Two-factor authentication was turned on for your RuralRoute account.');
    expect(mails.filter((m) => m.to.includes(bystander.email))).toEqual([]);
  });

  it('refuses a wrong code, no set-up, and turning it on twice', async () => {
    const me = await signUpAndIn('Erin Enable');
    expectState(await enable(me.token, { code: '123456' }));
    const { secret } = await setUp(me.token);
    expect((await enable(me.token, { code: await time.wrongCode(secret) })).body).toEqual(WRONG);
    expect((await enable(me.token, { code: await time.code(secret, 2) })).body).toEqual(WRONG);
    expect(await status(me.token)).toMatchObject({ enabled: false });
    expect((await enable(me.token, { code: await time.code(secret, -1) })).status).toBe(200);
    time.advance(STEP_MS);
    expectState(await enable(me.token, { code: await time.code(secret) }));
    expectState(await call('POST', '/account/two-factor/setup', { cookie: me.token }));
  });

  it.each<[string, unknown, string]>([
    ['no code', {}, CODE_REQUIRED],
    ['five digits', { code: '12345' }, CODE_REQUIRED],
    ['a number', { code: 123456 }, CODE_REQUIRED],
    ['a recovery code', { code: 'abcde-fghij' }, CODE_REQUIRED],
    ['an array body', [], INPUT_FALLBACK_MESSAGE],
  ])('refuses %s as input', async (_, body, message) => {
    const me = await signUpAndIn('Erin Enable');
    await setUp(me.token);
    expect((await enable(me.token, body)).body).toEqual({ code: 'validation_error', message });
  });

  it('makes every other session of mine pending at once, even one that had given a code', async () => {
    const me = await signUpAndIn('Erin Enable');
    const other = await signIn(me.email, STRONG_PASSWORD);
    // Resolved (and cached, when the cache is on) before the change.
    expect((await call('GET', '/account/profile', { cookie: other })).status).toBe(200);
    const { secret } = await turnOn(me.token);
    expect(await sessionOf(other)).toEqual(PENDING);
    expect((await call('GET', '/account/profile', { cookie: other })).status).toBe(401);
    expect(await sessionRow(other)).toMatchObject({ aal: 'aal1', verifiedAt: null });

    // It gives a code: aal2. Off and on again: it must give one again.
    time.advance(STEP_MS);
    const { token: raised } = await giveCode(other, { code: await time.code(secret) });
    expect((await sessionOf(raised!)).session?.aal).toBe('aal2');
    time.advance(STEP_MS);
    expect((await disable(me.token, { code: await time.code(secret) })).status).toBe(204);
    expect((await sessionOf(raised!)).session?.aal).toBe('aal2');
    await turnOn(me.token);
    expect(await sessionOf(raised!)).toEqual(PENDING);
    expect((await sessionOf(me.token)).session?.aal).toBe('aal2');
  });
});

describe('turning it off', () => {
  it('takes a current code: secret and recovery codes gone, pending sessions ended, a notice and its e-mail', async () => {
    const me = await signUpAndIn('Otto Off');
    const { secret } = await turnOn(me.token);
    time.advance(STEP_MS);
    const pending = await signIn(me.email, STRONG_PASSWORD);
    const mailsBefore = sink.mails.length;
    time.advance(STEP_MS);
    const res = await disable(me.token, { code: await time.code(secret) });
    expect(res.status).toBe(204);
    expect(await status(me.token)).toEqual({ enabled: false, recovery_codes_left: 0, recently_checked: true });
    const db = ctx.database.db;
    expect(await db.select().from(twoFactorSecrets).where(eq(twoFactorSecrets.userId, me.user.id))).toEqual([]);
    expect(await db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, me.user.id))).toEqual([]);
    // The session that had only given the password does not become signed in: it ended.
    expect(await sessionRow(pending)).toBeUndefined();
    expect(await sessionOf(pending)).toEqual({ user: null, session: null });
    expect((await sessionOf(me.token)).user?.id).toBe(me.user.id);
    // Signing in needs no code again.
    const again = await call<SessionInfo>('POST', '/auth/sign-in', {
      body: { email: me.email, password: STRONG_PASSWORD },
    });
    expect(again.body.user?.id).toBe(me.user.id);

    await deliverMail();
    // Jobs queued since the app's clock stopped (the 'on' notice too) all go now.
    const mails = sink.mails.slice(mailsBefore).filter((m) => m.to.includes(me.email));
    const mail = mails.find((m) => m.subject === 'Two-factor authentication turned off');
    expect(mail?.text).toContain('Two-factor authentication was turned off for your RuralRoute account.');
    const [notice] = await db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, me.user.id), eq(notifications.type, 'two_factor_disabled')));
    expect(notice).toBeDefined();
  });

  it('takes an unused recovery code instead; refuses wrong, used and replayed codes', async () => {
    const me = await signUpAndIn('Otto Off');
    const { secret, recoveryCodes: codes } = await turnOn(me.token);
    // The code that turned it on cannot turn it off.
    expect((await disable(me.token, { code: await time.code(secret) })).body).toEqual(WRONG);
    expect((await disable(me.token, { code: 'aaaaa-bbbbb' })).body).toEqual(WRONG);
    time.advance(STEP_MS);
    // A recovery code spent at sign-in no longer works.
    const pending = await signIn(me.email, STRONG_PASSWORD);
    expect((await giveCode(pending, { recovery_code: codes[0] })).res.status).toBe(200);
    expect((await disable(me.token, { code: codes[0] })).body).toEqual(WRONG);
    expect((await disable(me.token, { code: ` ${codes[1]!.toUpperCase()} ` })).status).toBe(204);
    expectState(await disable(me.token, { code: await time.code(secret) }));
  });

  it.each<[string, unknown, string]>([
    ['no code', {}, CODE_REQUIRED],
    ['an empty code', { code: '  ' }, CODE_REQUIRED],
    ['a huge code', { code: '1'.repeat(101) }, WRONG_CODE],
  ])('refuses %s as input', async (_, body, message) => {
    const me = await signUpAndIn('Otto Off');
    await turnOn(me.token);
    expect((await disable(me.token, body)).body).toEqual({ code: 'validation_error', message });
    expect((await status(me.token)).enabled).toBe(true);
  });

  it("is 409 when off, and after 10 minutes needs 'Confirm it's you' with a code", async () => {
    const me = await signUpAndIn('Otto Off');
    expectState(await disable(me.token, { code: '123456' }));
    const { secret } = await turnOn(me.token);
    time.advance(10 * MINUTE);
    expect((await disable(me.token, { code: await time.code(secret) })).body).toEqual(REAUTH);
    expect((await newCodes(me.token)).body).toEqual(REAUTH);
    expect((await status(me.token)).recently_checked).toBe(false);
    expect((await confirmIdentity(me.token, { password: STRONG_PASSWORD })).body).toEqual({
      code: 'code_required',
      message: CODE_REQUIRED,
    });
    expect((await confirmIdentity(me.token, { password: STRONG_PASSWORD, code: '000000' })).body).toEqual(WRONG);
    const ok = await confirmIdentity(me.token, { password: STRONG_PASSWORD, code: await time.code(secret) });
    expect(ok.status).toBe(204);
    expect((await status(me.token)).recently_checked).toBe(true);
    time.advance(STEP_MS);
    expect((await disable(me.token, { code: await time.code(secret) })).status).toBe(204);
  });
});

describe('new recovery codes', () => {
  it('replaces the old ones: they stop working, the new ones work', async () => {
    const me = await signUpAndIn('Rico Recovery');
    expectState(await newCodes(me.token));
    const { recoveryCodes: old } = await turnOn(me.token);
    const res = await newCodes(me.token);
    expect(res.status).toBe(200);
    const fresh = res.body.recovery_codes;
    expect(fresh).toHaveLength(10);
    expect(fresh.filter((c) => old.includes(c))).toEqual([]);
    expect(await status(me.token)).toMatchObject({ recovery_codes_left: 10 });
    const pending = await signIn(me.email, STRONG_PASSWORD);
    expect((await giveCode(pending, { recovery_code: old[0] })).res.body).toEqual(WRONG);
    expect((await giveCode(pending, { recovery_code: fresh[0] })).res.status).toBe(200);
    const unused = await ctx.database.db
      .select()
      .from(recoveryCodes)
      .where(and(eq(recoveryCodes.userId, me.user.id), isNull(recoveryCodes.usedAt)));
    expect(unused).toHaveLength(9);
  });
});

describe('wrong codes are counted per account', () => {
  it('refuses the 6th try at turning it on with 429, even with the right code', async () => {
    const me = await signUpAndIn('Lena Limit');
    const { secret } = await setUp(me.token);
    for (let i = 0; i < 5; i++)
      expect((await enable(me.token, { code: await time.wrongCode(secret, i) })).body).toEqual(WRONG);
    const res = await enable(me.token, { code: await time.code(secret) });
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ code: 'too_many_requests' });
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await status(me.token)).enabled).toBe(false);
  });

  it('counts wrong codes to turn it off with those of confirm-identity', async () => {
    const me = await signUpAndIn('Lena Limit');
    const { secret } = await turnOn(me.token);
    time.advance(STEP_MS);
    for (let i = 0; i < 3; i++)
      expect((await disable(me.token, { code: await time.wrongCode(secret, i) })).body).toEqual(WRONG);
    for (let i = 0; i < 2; i++) {
      const body = { password: STRONG_PASSWORD, code: await time.wrongCode(secret, i) };
      expect((await confirmIdentity(me.token, body)).body).toEqual(WRONG);
    }
    expect((await disable(me.token, { code: await time.code(secret) })).status).toBe(429);
    expect((await status(me.token)).enabled).toBe(true);
  });
});
