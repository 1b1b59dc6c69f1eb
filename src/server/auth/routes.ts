import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { normalizeEmail, sessionInfoSchema, signInSchema, signUpSchema, userSchema } from '../../shared/auth';
import { INPUT_FALLBACK_MESSAGE } from '../../shared/marketplace';
import { MODERATION_ERRORS } from '../../shared/moderation';
import { CODE_REQUIRED, signInCodeSchema, WRONG_CODE } from '../../shared/two-factor';
import type { AuthContext } from '../core/auth-context';
import { DomainError, unauthenticated } from '../core/domain-error';
import { clientIp } from '../http/client-ip';
import { clearSessionCookie, isHttps, readToken, requirePendingAuth, writeSessionCookie } from '../http/session';
import type { AppEnv } from '../http/types';
import { createRouter, firstIssueMessage, type ValidationResult } from '../http/validation';
import { errorResponses, jsonBody } from '../http/openapi';
import { enforceLimit, tooManyMessage, tooManyRequests, type AttemptCounter, type WindowLimit } from '../limits';
import { isBrowserId, newBrowserId } from './new-browser';
import type { SecondFactor } from '../two-factor';
import type { AuthService } from './service';

/** The browser cookie lives this long (browsers cap any cookie at 400 days); each sign-in renews it. */
const BROWSER_COOKIE_MAX_AGE_SECONDS = 400 * 24 * 3600;

/** The browser cookie's name: `__Host-` prefixed in production, like the session cookie (http/session.ts). */
const browserCookieName = (c: Context<AppEnv>) =>
  c.get('sessionCookie')?.production ? '__Host-rr_browser' : 'rr_browser';

/** This browser's id (new-browser.ts): the cookie's, or a new one when it has none (or a malformed one). */
function browserIdOf(c: Context<AppEnv>): string {
  const value = getCookie(c, browserCookieName(c));
  return isBrowserId(value) ? value : newBrowserId();
}

/** (Re)sets the browser cookie with the session cookie's attributes, for BROWSER_COOKIE_MAX_AGE_SECONDS. */
function writeBrowserCookie(c: Context<AppEnv>, browserId: string, trustProxyHops: number): void {
  setCookie(c, browserCookieName(c), browserId, {
    httpOnly: true,
    sameSite: 'Lax',
    secure: Boolean(c.get('sessionCookie')?.production) || isHttps(c, trustProxyHops),
    path: '/',
    maxAge: BROWSER_COOKIE_MAX_AGE_SECONDS,
  });
}

export interface AuthRateLimits {
  /** Failed sign-ins (wrong passwords and wrong codes of the code step) per account from one client address. */
  failedPerAccountAddress: WindowLimit;
  /** The same over all addresses: higher, so one stranger cannot lock the owner out. */
  failedPerAccount: WindowLimit;
  /** Sign-in and sign-up attempts per client address, successful or not. */
  perIp: WindowLimit;
}

const signUpRoute = createRoute({
  method: 'post',
  path: '/sign-up',
  tags: ['auth'],
  request: { body: jsonBody(signUpSchema) },
  responses: {
    201: {
      description: 'Account created',
      content: { 'application/json': { schema: z.object({ user: userSchema }) } },
    },
    ...errorResponses(400, 403, 409, 429),
  },
});

const signInRoute = createRoute({
  method: 'post',
  path: '/sign-in',
  tags: ['auth'],
  request: { body: jsonBody(signInSchema) },
  responses: {
    200: {
      description:
        'Signed in; the session cookie is set. With two-factor on, the session is only pending: the body is ' +
        '`{ user: null, session: null, two_factor_pending: true }` and POST /auth/two-factor comes next.',
      content: { 'application/json': { schema: sessionInfoSchema } },
    },
    ...errorResponses(400, 401, 403, 429),
  },
});

const twoFactorRoute = createRoute({
  method: 'post',
  path: '/two-factor',
  tags: ['auth'],
  request: { body: jsonBody(signInCodeSchema) },
  responses: {
    200: {
      description:
        "The pending session's code was right: it is signed in at aal2, under a new token (the session cookie is " +
        'replaced)',
      content: { 'application/json': { schema: sessionInfoSchema } },
    },
    ...errorResponses(400, 401, 403, 415, 429),
  },
});

const signOutRoute = createRoute({
  method: 'post',
  path: '/sign-out',
  tags: ['auth'],
  responses: { 204: { description: 'Session revoked' }, ...errorResponses(403) },
});

const sessionRoute = createRoute({
  method: 'get',
  path: '/session',
  tags: ['auth'],
  responses: {
    200: {
      description: 'The current user, or nulls when signed out (and `two_factor_pending: true` while a code is due)',
      content: { 'application/json': { schema: sessionInfoSchema } },
    },
  },
});

/** SessionInfo of a signed-in session. */
function sessionInfo(user: AuthContext['user'], aal: 'aal1' | 'aal2', idleUntil: Date, expiresAt: Date) {
  return {
    user,
    session: { aal, idle_expires_at: idleUntil.toISOString(), expires_at: expiresAt.toISOString() },
  };
}

/**
 * A body that is neither `{ code }` nor `{ recovery_code }` (empty, both, not an object): zod's union says only
 * 'Invalid input', so the code field's own message answers instead; a field of neither form gets the general one.
 */
function codeHook(result: ValidationResult): undefined {
  if (result.success) return undefined;
  const issue = (result.error as { issues?: { code: string }[] } | undefined)?.issues?.[0];
  if (issue?.code === 'invalid_union') throw new DomainError('validation_error', CODE_REQUIRED);
  if (issue?.code === 'unrecognized_keys') throw new DomainError('validation_error', INPUT_FALLBACK_MESSAGE);
  throw new DomainError('validation_error', firstIssueMessage(result));
}

const PENDING = { user: null, session: null, two_factor_pending: true } as const;

export function authRoutes(
  auth: AuthService,
  secondFactor: SecondFactor,
  counter: AttemptCounter,
  limits: AuthRateLimits,
  trustProxyHops: number,
) {
  const countIpAttempt = (ip: string) => enforceLimit(counter, 'auth-ip', ip, limits.perIp, tooManyMessage);

  /**
   * Reserves one failure for `account` (the normalized e-mail) before the slow check runs, so parallel attempts
   * cannot all slip under the limit. The account-wide count is only touched once the per-address one allows the
   * attempt: a stranger's refused attempts never use up the owner's allowance. Wrong passwords and wrong codes of
   * the code step share these counts, and only a finished sign-in forgets them (`succeeded`): a right password
   * followed by guessed codes cannot reset the count of wrong codes.
   */
  async function reserveFailure(account: string, ip: string) {
    const accountAtIp = `${account}\0${ip}`;
    const pair = await enforceLimit(
      counter,
      'sign-in-account-ip',
      accountAtIp,
      limits.failedPerAccountAddress,
      tooManyMessage,
    );
    const overall = await counter.hit('sign-in-account', account, limits.failedPerAccount);
    if (!overall.allowed) {
      await counter.release(pair);
      throw tooManyRequests(tooManyMessage(overall.retryAfterSeconds), overall.retryAfterSeconds);
    }
    return {
      /** The sign-in is complete: this address's failures are forgotten, and this attempt was none. */
      succeeded: () => Promise.all([counter.clear('sign-in-account-ip', accountAtIp), counter.release(overall)]),
      /** The password was right but a code is still due: this attempt was no failure, earlier ones stay. */
      halfway: () => Promise.all([counter.release(pair), counter.release(overall)]),
    };
  }

  const router = createRouter();

  router.openapi(signUpRoute, async (c) => {
    await countIpAttempt(clientIp(c, trustProxyHops));
    const input = c.req.valid('json');
    // The browser that signs up is the account's first known one: signing in from it later is not 'new'.
    const browserId = browserIdOf(c);
    const user = await auth.signUp(input, browserId);
    writeBrowserCookie(c, browserId, trustProxyHops);
    return c.json({ user }, 201);
  });

  router.openapi(signInRoute, async (c) => {
    const ip = clientIp(c, trustProxyHops);
    await countIpAttempt(ip);
    const { email, password } = c.req.valid('json');
    // Keyed by the normalized address whether or not an account has it: unknown e-mails are limited the same way.
    const attempt = await reserveFailure(normalizeEmail(email), ip);
    const verified = await auth.verifyCredentials(email, password);
    if (!verified) throw new DomainError('invalid_credentials', 'Invalid email or password.');
    // Only failures count: a correct password returns this attempt's hits (and, without two-factor, forgets this
    // address's failures).
    await (verified.twoFactor ? attempt.halfway() : attempt.succeeded());
    // The right password for a suspended account: told so (only now), and no session.
    if (verified.suspended) throw new DomainError('account_suspended', MODERATION_ERRORS.account_suspended.message);
    const { user, twoFactor } = verified;
    // Only now, with the right password: a failed sign-in never records a browser or tells anyone.
    const browserId = browserIdOf(c);
    const created = await auth.createSession(user.id, c.req.header('user-agent'), browserId, { pending: twoFactor });
    writeSessionCookie(c, created.token, created.lastSeenAt, created.expiresAt, auth.policy.idleMs, trustProxyHops);
    writeBrowserCookie(c, browserId, trustProxyHops);
    if (twoFactor) return c.json(PENDING, 200);
    const idleUntil = new Date(created.lastSeenAt.getTime() + auth.policy.idleMs);
    return c.json(sessionInfo(user, 'aal1', idleUntil, created.expiresAt), 200);
  });

  // The second step of a sign-in with two-factor on: a TOTP code or a recovery code for the pending session.
  router.openapi(
    { ...twoFactorRoute, middleware: [requirePendingAuth] },
    async (c) => {
      const ip = clientIp(c, trustProxyHops);
      await countIpAttempt(ip);
      const { user } = c.get('pendingAuth')!;
      const token = readToken(c)!;
      const input = c.req.valid('json');
      const attempt = await reserveFailure(normalizeEmail(user.email), ip);
      const right =
        'code' in input
          ? await secondFactor.verifyCode(user.id, input.code, { recovery: false })
          : await secondFactor.verifyCode(user.id, input.recovery_code, { recovery: true });
      if (!right) throw new DomainError('wrong_code', WRONG_CODE);
      await attempt.succeeded();
      const raised = await auth.completeSecondFactor(token);
      // Signed out (or completed by a parallel request) while the code was checked.
      if (!raised) throw unauthenticated();
      writeSessionCookie(c, raised.token, raised.lastSeenAt, raised.expiresAt, auth.policy.idleMs, trustProxyHops);
      const idleUntil = new Date(
        Math.min(raised.lastSeenAt.getTime() + auth.policy.idleMs, raised.expiresAt.getTime()),
      );
      return c.json(sessionInfo(user, 'aal2', idleUntil, raised.expiresAt), 200);
    },
    codeHook,
  );

  router.openapi(signOutRoute, async (c) => {
    const token = readToken(c);
    if (token) await auth.revokeSession(token);
    clearSessionCookie(c);
    return c.body(null, 204);
  });

  router.openapi(sessionRoute, (c) => {
    const ctx = c.get('auth');
    if (!ctx) return c.json(c.get('pendingAuth') ? PENDING : { user: null, session: null }, 200);
    const { lastSeenAt, expiresAt, aal } = ctx.session;
    const idleUntil = new Date(Math.min(lastSeenAt.getTime() + auth.policy.idleMs, expiresAt.getTime()));
    return c.json(sessionInfo(ctx.user, aal, idleUntil, expiresAt), 200);
  });

  return router;
}
