import { and, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionInfo } from '../../shared/auth';
import { INPUT_FALLBACK_MESSAGE } from '../../shared/marketplace';
import { CODE_REQUIRED, WRONG_CODE } from '../../shared/two-factor';
import { notifications, sessions } from '../db/schema';
import { STRONG_PASSWORD, setupTestApp, type CallResult } from '../test/harness';
import { frozenClock, STEP_MS, twoFactorSteps } from '../test/two-factor';
import { hashToken } from './tokens';

const time = frozenClock();
afterEach(time.reset);

// Per account and address: the default 5. Over all addresses: low, so guessing spread over addresses is reachable.
const { ctx, call, signUpAndIn, signIn } = setupTestApp(
  { AUTH_PER_IP_MAX: '100000', AUTH_FAILED_PER_ACCOUNT_ALL_ADDRESSES_MAX: '8', JOBS_POLL_MS: '3600000' },
  { clock: time.clock },
);
const { turnOn, giveCode } = twoFactorSteps(call, async (secret) => await time.code(secret));

const PENDING = { user: null, session: null, two_factor_pending: true };
const WRONG = { code: 'wrong_code', message: WRONG_CODE };
const sessionOf = async (token: string) => (await call<SessionInfo>('GET', '/auth/session', { cookie: token })).body;

/** A person with two-factor on, and a pending session of theirs (password given, code due) one step later. */
async function pendingPerson(name = 'Tess Twofactor') {
  const me = await signUpAndIn(name);
  const { secret, recoveryCodes } = await turnOn(me.token);
  time.advance(STEP_MS);
  const pending = await signIn(me.email, STRONG_PASSWORD);
  return { ...me, secret, recoveryCodes, pending };
}

async function sessionRow(token: string) {
  const [row] = await ctx.database.db
    .select()
    .from(sessions)
    .where(eq(sessions.tokenHash, hashToken(token)));
  return row;
}

function expectLimited(res: CallResult) {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({
    code: 'too_many_requests',
    message: 'Too many attempts. Please wait 15 minutes and try again.',
  });
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(14 * 60);
}

describe('sign-in with two-factor on: the password gives a pending session', () => {
  it('answers pending with the cookie set; the session is aal1 and unchecked', async () => {
    const me = await signUpAndIn('Tess Twofactor');
    await turnOn(me.token);
    const res = await call('POST', '/auth/sign-in', { body: { email: me.email, password: STRONG_PASSWORD } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(PENDING);
    const token = res.headers.get('set-cookie')?.match(/rr_session=([^;]+)/)?.[1];
    expect(token).toBeDefined();
    expect(await sessionRow(token!)).toMatchObject({ userId: me.user.id, aal: 'aal1', verifiedAt: null });
    expect(await sessionOf(token!)).toEqual(PENDING);
    // A browser the account had not seen: the 'new_sign_in' notice comes with the password, as before.
    const notices = await ctx.database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, me.user.id), eq(notifications.type, 'new_sign_in')));
    expect(notices).toHaveLength(1);
  });

  it('answers as before without two-factor: no two_factor_pending at all', async () => {
    const me = await signUpAndIn('Nora Noneed');
    const res = await call<SessionInfo>('POST', '/auth/sign-in', {
      body: { email: me.email, password: STRONG_PASSWORD },
    });
    expect(res.status).toBe(200);
    expect(res.body.session?.aal).toBe('aal1');
    expect(res.body.user?.id).toBe(me.user.id);
    expect(res.body).not.toHaveProperty('two_factor_pending');
    expect(await sessionOf(me.token)).not.toHaveProperty('two_factor_pending');
  });

  it('is signed out for every other purpose, while the session that gave a code is not', async () => {
    const me = await pendingPerson();
    for (const [method, path] of [
      ['GET', '/account/profile'],
      ['GET', '/account/sessions'],
      ['GET', '/account/two-factor'],
      ['POST', '/account/two-factor/setup'],
      ['POST', '/account/confirm-identity'],
      ['GET', '/dashboard'],
      ['GET', '/notifications'],
      ['POST', '/rides'],
      ['GET', '/events'],
    ] as const) {
      const res = await call(method, path, { cookie: me.pending, body: method === 'POST' ? {} : undefined });
      expect({ path, status: res.status, body: res.body }).toEqual({
        path,
        status: 401,
        body: { code: 'unauthenticated', message: 'Please sign in to continue.' },
      });
    }
    // Its cookie is kept (it is not an unknown session), and the enabling session is still signed in at aal2.
    expect((await call('GET', '/account/profile', { cookie: me.pending })).headers.get('set-cookie')).toBeNull();
    expect((await sessionOf(me.token)).session?.aal).toBe('aal2');
    expect((await call('GET', '/account/profile', { cookie: me.token })).status).toBe(200);
  });

  it('can sign out', async () => {
    const me = await pendingPerson();
    expect((await call('POST', '/auth/sign-out', { cookie: me.pending })).status).toBe(204);
    expect(await sessionRow(me.pending)).toBeUndefined();
    expect(await sessionOf(me.pending)).toEqual({ user: null, session: null });
    expect((await giveCode(me.pending, { code: await time.code(me.secret) })).res.status).toBe(401);
  });
});

describe('POST /auth/two-factor', () => {
  it('takes a right code: aal2, just checked, under a new token; the old one signs nothing in', async () => {
    const me = await pendingPerson();
    const { res, token } = await giveCode(me.pending, { code: await time.code(me.secret) });
    expect(res.status).toBe(200);
    const body = res.body as SessionInfo;
    expect(body.user).toEqual({
      id: me.user.id,
      email: me.email,
      full_name: 'Tess Twofactor',
      is_admin: false,
      email_verified: false,
      plan: 'free',
    });
    expect(body.session?.aal).toBe('aal2');
    expect(Date.parse(body.session!.expires_at)).toBeGreaterThan(Date.now());
    expect(body).not.toHaveProperty('two_factor_pending');
    expect(token).toBeDefined();
    expect(token).not.toBe(me.pending);
    expect(res.headers.get('set-cookie')).toMatch(/HttpOnly/i);

    expect(await sessionOf(token!)).toEqual(body);
    expect((await call('GET', '/account/profile', { cookie: token })).status).toBe(200);
    expect(await sessionRow(token!)).toMatchObject({ aal: 'aal2', verifiedAt: time.clock() });
    expect((await call('GET', '/account/two-factor', { cookie: token })).body).toMatchObject({
      enabled: true,
      recently_checked: true,
    });
    // The pending token is gone: neither signed in nor pending, and it cannot give a code again.
    expect(await sessionRow(me.pending)).toBeUndefined();
    expect(await sessionOf(me.pending)).toEqual({ user: null, session: null });
    time.advance(STEP_MS);
    expect((await giveCode(me.pending, { code: await time.code(me.secret) })).res.status).toBe(401);
  });

  it('accepts a code one step either side, refuses two steps off and a code used before', async () => {
    const me = await pendingPerson();
    // Two steps off either way: refused (and after the step of the set-up, so not for replay).
    time.advance(2 * STEP_MS);
    for (const steps of [-2, 2])
      expect((await giveCode(me.pending, { code: await time.code(me.secret, steps) })).res.body).toEqual(WRONG);
    // One step behind: accepted.
    const behind = await time.code(me.secret, -1);
    expect((await giveCode(me.pending, { code: behind })).res.status).toBe(200);
    // The same code again, for another pending session, at the same moment: replay.
    const second = await signIn(me.email, STRONG_PASSWORD);
    expect((await giveCode(second, { code: behind })).res.body).toEqual(WRONG);
    // One step ahead: accepted, typed with a space.
    const ahead = await time.code(me.secret, 1);
    const res = (await giveCode(second, { code: `${ahead.slice(0, 3)} ${ahead.slice(3)}` })).res;
    expect(res.status).toBe(200);
    // The current code is now behind the last one used: refused.
    const third = await signIn(me.email, STRONG_PASSWORD);
    expect((await giveCode(third, { code: await time.code(me.secret) })).res.body).toEqual(WRONG);
    time.advance(2 * STEP_MS);
    expect((await giveCode(third, { code: await time.code(me.secret) })).res.status).toBe(200);
  });

  it('takes each recovery code once, typed in any case, with or without the dash', async () => {
    const me = await pendingPerson();
    const [first, second] = me.recoveryCodes as [string, string];
    expect(first).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    const typed = ` ${first.replace('-', '').toUpperCase()} `;
    expect((await giveCode(me.pending, { recovery_code: typed })).res.status).toBe(200);
    const again = await signIn(me.email, STRONG_PASSWORD);
    expect((await giveCode(again, { recovery_code: first })).res.body).toEqual(WRONG);
    expect((await giveCode(again, { recovery_code: 'aaaaa-bbbbb' })).res.body).toEqual(WRONG);
    // A recovery code is not a TOTP code: in the `code` field it is refused as input.
    expect((await giveCode(again, { code: second })).res.body).toEqual({
      code: 'validation_error',
      message: CODE_REQUIRED,
    });
    expect((await giveCode(again, { recovery_code: second })).res.status).toBe(200);
    const status = await call('GET', '/account/two-factor', { cookie: me.token });
    expect(status.body).toMatchObject({ enabled: true, recovery_codes_left: 8 });
  });

  it.each<[string, unknown, string]>([
    ['an empty body', {}, CODE_REQUIRED],
    ['five digits', { code: '12345' }, CODE_REQUIRED],
    ['letters', { code: 'abcdef' }, CODE_REQUIRED],
    ['a number', { code: 123456 }, CODE_REQUIRED],
    ['both fields', { code: '123456', recovery_code: 'aaaaa-bbbbb' }, CODE_REQUIRED],
    ['an unknown field', { code: '123456', remember: true }, INPUT_FALLBACK_MESSAGE],
    ['a short recovery code', { recovery_code: 'abc' }, WRONG_CODE],
    ['a recovery code with 0 and 1', { recovery_code: 'aaaa0-bbbb1' }, WRONG_CODE],
    ['a huge recovery code', { recovery_code: 'a'.repeat(5000) }, WRONG_CODE],
    ['an array', [], CODE_REQUIRED],
    ['null', null, CODE_REQUIRED],
  ])('refuses %s as input (400), counting nothing', async (_, body, message) => {
    const me = await pendingPerson();
    for (let i = 0; i < 6; i++)
      expect((await giveCode(me.pending, body)).res.body).toEqual({ code: 'validation_error', message });
    expect((await giveCode(me.pending, { code: await time.code(me.secret) })).res.status).toBe(200);
  });

  it('answers 401 without a pending session', async () => {
    const me = await pendingPerson();
    const code = await time.code(me.secret);
    expect((await call('POST', '/auth/two-factor', { body: { code } })).status).toBe(401);
    // A signed-in session (aal2, or a person without two-factor) has no code to give; nor has a made-up token.
    const plain = await signUpAndIn('Nora Noneed');
    for (const cookie of [me.token, plain.token, 'x'.repeat(43)]) {
      const res = await giveCode(cookie, { code });
      expect(res.res.status).toBe(401);
      expect(res.res.body).toEqual({ code: 'unauthenticated', message: 'Please sign in to continue.' });
    }
    // Invalid input without a pending session is still 401: the session is checked first.
    expect((await call('POST', '/auth/two-factor', { body: {} })).status).toBe(401);
    // None of it spent the code.
    expect((await giveCode(me.pending, { code })).res.status).toBe(200);
  });
});

describe('wrong codes are counted with wrong passwords', () => {
  it('refuses the 6th code from one address with 429, even the right one; the password does not reset it', async () => {
    const me = await pendingPerson();
    for (let i = 0; i < 5; i++) {
      const wrong = await time.wrongCode(me.secret, i);
      expect((await giveCode(me.pending, { code: wrong }, '10.40.0.1')).res.body).toEqual(WRONG);
    }
    expectLimited((await giveCode(me.pending, { code: await time.code(me.secret) }, '10.40.0.1')).res);
    expectLimited((await giveCode(me.pending, { recovery_code: me.recoveryCodes[0] }, '10.40.0.1')).res);
    // Giving the password again from that address does not start a new count: it is refused too.
    expectLimited(
      await call('POST', '/auth/sign-in', { body: { email: me.email, password: STRONG_PASSWORD }, ip: '10.40.0.1' }),
    );
    // The right code was never checked: it still works elsewhere.
    const elsewhere = await signIn(me.email, STRONG_PASSWORD, '10.40.0.2');
    expect((await giveCode(elsewhere, { code: await time.code(me.secret) }, '10.40.0.2')).res.status).toBe(200);
  });

  it('caps guessing spread over addresses with the account-wide count', async () => {
    const me = await pendingPerson();
    // 8 wrong codes account-wide, each address under its own limit; the password steps in between count nothing.
    const pendings: string[] = [];
    for (let ip = 1; ip <= 4; ip++) {
      pendings.push(await signIn(me.email, STRONG_PASSWORD, `10.41.0.${ip}`));
      for (let j = 0; j < 2; j++) {
        const { res } = await giveCode(pendings.at(-1)!, { code: await time.wrongCode(me.secret, j) }, `10.41.0.${ip}`);
        expect(res.body).toEqual(WRONG);
      }
    }
    // Now the right code is refused from an address with only 2 of its own, and so is a password from a new one.
    expectLimited((await giveCode(pendings[3]!, { code: await time.code(me.secret) }, '10.41.0.4')).res);
    const signInAgain = { email: me.email, password: STRONG_PASSWORD };
    expectLimited(await call('POST', '/auth/sign-in', { body: signInAgain, ip: '10.41.0.9' }));
  });

  it('forgets the wrong codes of an address once a code is right', async () => {
    const me = await pendingPerson();
    for (let i = 0; i < 4; i++)
      expect((await giveCode(me.pending, { code: await time.wrongCode(me.secret) }, '10.42.0.1')).res.body).toEqual(
        WRONG,
      );
    expect((await giveCode(me.pending, { code: await time.code(me.secret) }, '10.42.0.1')).res.status).toBe(200);
    time.advance(STEP_MS);
    const next = await signIn(me.email, STRONG_PASSWORD, '10.42.0.1');
    for (let i = 0; i < 3; i++)
      expect((await giveCode(next, { code: await time.wrongCode(me.secret) }, '10.42.0.1')).res.body).toEqual(WRONG);
    expect((await giveCode(next, { code: await time.code(me.secret) }, '10.42.0.1')).res.status).toBe(200);
  });
});
