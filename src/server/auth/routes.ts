import { createRoute, z } from '@hono/zod-openapi';
import { normalizeEmail, sessionInfoSchema, signInSchema, signUpSchema, userSchema } from '../../shared/auth';
import { AppError } from '../http/app-error';
import { clientIp } from '../http/client-ip';
import { SlidingWindowLimiter, tooManyMessage } from '../http/rate-limiter';
import { clearSessionCookie, readToken, writeSessionCookie } from '../http/session';
import { createRouter } from '../http/validation';
import { errorResponses, jsonBody } from '../http/openapi';
import type { AuthService } from './service';

export interface AuthRateLimits {
  failedPerAccount: { max: number; windowMs: number };
  perIp: { max: number; windowMs: number };
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

export function authRoutes(auth: AuthService, limits: AuthRateLimits, trustProxyHops: number) {
  const failedByAccount = new SlidingWindowLimiter(limits.failedPerAccount.max, limits.failedPerAccount.windowMs);
  const attemptsByIp = new SlidingWindowLimiter(limits.perIp.max, limits.perIp.windowMs);
  const pruner = setInterval(() => {
    failedByAccount.prune();
    attemptsByIp.prune();
  }, 60_000);
  pruner.unref();

  const limited = (retryAfter: number) =>
    new AppError(429, 'too_many_requests', tooManyMessage(retryAfter), { 'Retry-After': String(retryAfter) });

  /** Every sign-in or sign-up counts against the caller's address, successful or not. */
  const countIpAttempt = (ip: string) => {
    const wait = attemptsByIp.retryAfter(ip);
    if (wait) throw limited(wait);
    attemptsByIp.record(ip);
  };

  const router = createRouter();

  router.openapi(signUpRoute, async (c) => {
    countIpAttempt(clientIp(c, trustProxyHops));
    const input = c.req.valid('json');
    const user = await auth.signUp(input);
    return c.json({ user }, 201);
  });

  router.openapi(signInRoute, async (c) => {
    countIpAttempt(clientIp(c, trustProxyHops));
    const { email, password } = c.req.valid('json');
    const account = normalizeEmail(email);
    const wait = failedByAccount.retryAfter(account);
    if (wait) throw limited(wait);
    const user = await auth.verifyCredentials(email, password);
    if (!user) {
      failedByAccount.record(account);
      throw new AppError(401, 'invalid_credentials', 'Invalid email or password.');
    }
    failedByAccount.reset(account);
    const created = await auth.createSession(user.id, c.req.header('user-agent'));
    writeSessionCookie(c, created.token, created.lastSeenAt, created.expiresAt, auth.policy.idleMs, trustProxyHops);
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
