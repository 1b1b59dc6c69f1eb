import { createRoute, z } from '@hono/zod-openapi';
import { FORGOT_PASSWORD_ANSWER, forgotPasswordSchema, resetPasswordSchema } from '../../shared/account';
import { normalizeEmail } from '../../shared/auth';
import { clientIp } from '../http/client-ip';
import { errorResponses, jsonBody } from '../http/openapi';
import { createRouter } from '../http/validation';
import type { AttemptCounter, WindowLimit } from '../limits';
import type { RecoveryService } from './recovery';

export interface RecoveryLimits {
  /** Reset requests from one client address. */
  perIp: WindowLimit;
  /** Reset requests for one e-mail address (from anywhere): nobody can flood a mailbox with reset mails. */
  perAddress: WindowLimit;
}

const forgotRoute = createRoute({
  method: 'post',
  path: '/forgot-password',
  tags: ['auth'],
  summary: 'Ask for a password reset link (always the same answer)',
  request: { body: jsonBody(forgotPasswordSchema) },
  responses: {
    200: {
      description:
        'The same answer whether or not an account has the address, and also when too many requests were made',
      content: { 'application/json': { schema: z.object({ message: z.string() }) } },
    },
    ...errorResponses(400, 403),
  },
});

const checkRoute = createRoute({
  method: 'get',
  path: '/reset-password/check',
  tags: ['auth'],
  summary: 'Whether a reset link still works',
  request: { query: z.object({ token: z.string().optional() }) },
  responses: {
    200: {
      description: 'valid: known, unused and not expired',
      content: { 'application/json': { schema: z.object({ valid: z.boolean() }) } },
    },
  },
});

const resetRoute = createRoute({
  method: 'post',
  path: '/reset-password',
  tags: ['auth'],
  summary: 'Choose a new password with a reset link',
  request: { body: jsonBody(resetPasswordSchema) },
  responses: {
    204: { description: 'Password set; every session of the account has ended' },
    ...errorResponses(400, 403),
  },
});

/** Mounted under /auth; no session needed (the Origin check applies as to sign-in). */
export function recoveryRoutes(
  recovery: RecoveryService,
  counter: AttemptCounter,
  limits: RecoveryLimits,
  trustProxyHops: number,
) {
  const router = createRouter();

  router.openapi(forgotRoute, async (c) => {
    const { email } = c.req.valid('json');
    // Over either limit the answer stays the same (it must not tell whether the limit or the address decided);
    // only the job is left out. The address is counted only once the client address is allowed, so a flood from
    // one host does not use up the owner's own requests.
    const byIp = await counter.hit('forgot-password-ip', clientIp(c, trustProxyHops), limits.perIp);
    const allowed =
      byIp.allowed && (await counter.hit('forgot-password-address', normalizeEmail(email), limits.perAddress)).allowed;
    if (allowed) await recovery.requestReset(email);
    return c.json({ message: FORGOT_PASSWORD_ANSWER }, 200);
  });

  router.openapi(checkRoute, async (c) => {
    const { token } = c.req.valid('query');
    return c.json({ valid: token ? await recovery.checkToken(token) : false }, 200);
  });

  router.openapi(resetRoute, async (c) => {
    await recovery.resetPassword(c.req.valid('json'));
    return c.body(null, 204);
  });

  return router;
}
