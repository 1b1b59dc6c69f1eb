import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { normalizeEmail, sessionInfoSchema, signInSchema, signUpSchema, userSchema } from '../../shared/auth';
import { MODERATION_ERRORS } from '../../shared/moderation';
import { DomainError } from '../core/domain-error';
import { clientIp } from '../http/client-ip';
import { clearSessionCookie, isHttps, readToken, writeSessionCookie } from '../http/session';
import type { AppEnv } from '../http/types';
import { createRouter } from '../http/validation';
import { errorResponses, jsonBody } from '../http/openapi';
import { enforceLimit, tooManyMessage, tooManyRequests, type AttemptCounter, type WindowLimit } from '../limits';
import { isBrowserId, newBrowserId } from './new-browser';
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
  /** Failed sign-ins per account from one client address. */
  failedPerAccountAddress: WindowLimit;
  /** Failed sign-ins per account over all addresses: higher, so one stranger cannot lock the owner out. */
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
      description: 'Signed in; the session cookie is set',
      content: { 'application/json': { schema: sessionInfoSchema } },
    },
    ...errorResponses(400, 401, 403, 429),
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
      description: 'The current user, or nulls when signed out',
      content: { 'application/json': { schema: sessionInfoSchema } },
    },
  },
});

export function authRoutes(auth: AuthService, counter: AttemptCounter, limits: AuthRateLimits, trustProxyHops: number) {
  const countIpAttempt = (ip: string) => enforceLimit(counter, 'auth-ip', ip, limits.perIp, tooManyMessage);

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
    const account = normalizeEmail(email);
    const accountAtIp = `${account}\0${ip}`;
    // Each attempt is reserved before argon2 runs, so parallel attempts cannot all slip under the limit. The
    // account-wide count is only touched once the per-address one allows the attempt: a stranger's refused
    // attempts never use up the owner's allowance.
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
    const verified = await auth.verifyCredentials(email, password);
    if (!verified) throw new DomainError('invalid_credentials', 'Invalid email or password.');
    // Only failures count: a correct password forgets this address's failures and returns the account-wide hit.
    await Promise.all([counter.clear('sign-in-account-ip', accountAtIp), counter.release(overall)]);
    // The right password for a suspended account: told so (only now), and no session.
    if (verified.suspended) throw new DomainError('account_suspended', MODERATION_ERRORS.account_suspended.message);
    const { user } = verified;
    // Only now, with the right password: a failed sign-in never records a browser or tells anyone.
    const browserId = browserIdOf(c);
    const created = await auth.createSession(user.id, c.req.header('user-agent'), browserId);
    writeSessionCookie(c, created.token, created.lastSeenAt, created.expiresAt, auth.policy.idleMs, trustProxyHops);
    writeBrowserCookie(c, browserId, trustProxyHops);
    return c.json(
      {
        user,
        session: {
          aal: 'aal1' as const,
          idle_expires_at: new Date(created.lastSeenAt.getTime() + auth.policy.idleMs).toISOString(),
          expires_at: created.expiresAt.toISOString(),
        },
      },
      200,
    );
  });

  router.openapi(signOutRoute, async (c) => {
    const token = readToken(c);
    if (token) await auth.revokeSession(token);
    clearSessionCookie(c);
    return c.body(null, 204);
  });

  router.openapi(sessionRoute, (c) => {
    const ctx = c.get('auth');
    if (!ctx) return c.json({ user: null, session: null }, 200);
    return c.json(
      {
        user: ctx.user,
        session: {
          aal: ctx.session.aal,
          idle_expires_at: new Date(
            Math.min(ctx.session.lastSeenAt.getTime() + auth.policy.idleMs, ctx.session.expiresAt.getTime()),
          ).toISOString(),
          expires_at: ctx.session.expiresAt.toISOString(),
        },
      },
      200,
    );
  });

  return router;
}
