import { createRoute, z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { INPUT_FALLBACK_MESSAGE } from '../../shared/marketplace';
import { EMAIL_VERIFY_EXPIRED, EMAIL_VERIFY_LINK_HOURS } from '../../shared/verification';
import { objectBody } from '../http/body';
import { errorResponses, jsonBody } from '../http/openapi';
import { currentAuth, requireAuth } from '../http/session';
import type { AppEnv } from '../http/types';
import { createRouter } from '../http/validation';
import type { EmailVerification } from './email-verification';

const emailSchema = z.object({ email: z.string() });
const tokenSchema = z.object({
  token: z.string({ error: EMAIL_VERIFY_EXPIRED }).min(1, EMAIL_VERIFY_EXPIRED).max(200, EMAIL_VERIFY_EXPIRED),
});

const resendRoute = createRoute({
  method: 'post',
  path: '/email-verification',
  tags: ['account'],
  summary: "'Resend email': a new confirmation link to my current address",
  responses: {
    202: {
      description: `A link valid for ${EMAIL_VERIFY_LINK_HOURS} hours is on its way to the address.`,
      content: { 'application/json': { schema: emailSchema } },
    },
    ...errorResponses(401, 409, 429),
  },
});

const confirmRoute = createRoute({
  method: 'post',
  path: '/verify-email',
  tags: ['auth'],
  summary: 'Open the confirmation link mailed at sign-up (no session needed)',
  request: { body: jsonBody(objectBody(tokenSchema, INPUT_FALLBACK_MESSAGE)) },
  responses: {
    200: {
      description: "The account's address is confirmed (on every instance at once).",
      content: { 'application/json': { schema: emailSchema } },
    },
    ...errorResponses(400, 403, 415),
  },
});

/** `/account/email-verification` (the dashboard's banner and Settings' 'Verification'). */
export function emailVerificationRoutes(service: EmailVerification, throttle: MiddlewareHandler<AppEnv>) {
  const router = createRouter();
  router.openapi({ ...resendRoute, middleware: [requireAuth, throttle] }, async (c) =>
    c.json(await service.resend(currentAuth(c).user.id), 202),
  );
  return router;
}

/** Mounted under /auth: the link works signed in or out, in any browser. */
export function verifyEmailRoutes(service: EmailVerification) {
  const router = createRouter();
  router.openapi(confirmRoute, async (c) => c.json(await service.confirm(c.req.valid('json').token), 200));
  return router;
}
