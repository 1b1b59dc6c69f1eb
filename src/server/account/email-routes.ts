import { createRoute, z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { changeEmailSchema, confirmEmailSchema, EMAIL_LINK_HOURS, pendingEmailSchema } from '../../shared/account';
import { INPUT_FALLBACK_MESSAGE } from '../../shared/marketplace';
import { objectBody } from '../http/body';
import { errorResponses, jsonBody } from '../http/openapi';
import { currentAuth, requireAuth } from '../http/session';
import { sensitive } from '../http/sensitive';
import type { AppEnv } from '../http/types';
import { createRouter } from '../http/validation';
import type { EmailChangeService } from './email-service';
import { callerOf } from './routes';

const changeRoute = createRoute({
  method: 'post',
  path: '/email',
  tags: ['account'],
  summary: "Settings 'Email': ask to change my address (the same answer whether or not it is taken)",
  request: { body: jsonBody(objectBody(changeEmailSchema, INPUT_FALLBACK_MESSAGE)) },
  responses: {
    202: {
      description:
        `The change waits for confirmation: a link valid for ${EMAIL_LINK_HOURS} hours goes to the new address ` +
        '(or, when an account already has it, a mail saying so). Replaces any earlier pending change.',
      content: { 'application/json': { schema: pendingEmailSchema } },
    },
    ...errorResponses(400, 401, 415, 429),
  },
});

const cancelRoute = createRoute({
  method: 'delete',
  path: '/email',
  tags: ['account'],
  summary: "'Cancel change': the pending change's link stops working",
  responses: {
    204: { description: 'No change is pending now' },
    ...errorResponses(401, 429),
  },
});

const confirmRoute = createRoute({
  method: 'post',
  path: '/confirm-email',
  tags: ['auth'],
  summary: 'Open the link mailed to the new address (no session needed)',
  request: { body: jsonBody(objectBody(confirmEmailSchema, INPUT_FALLBACK_MESSAGE)) },
  responses: {
    200: {
      description:
        "The account's address is now the new one (on every instance at once); the old address got a security " +
        'notice. Sessions stay signed in.',
      content: { 'application/json': { schema: z.object({ email: z.string() }) } },
    },
    ...errorResponses(400, 403, 409, 415),
  },
});

/** `/account/email` (Settings 'Email'): the signed-in person's own pending change. */
export function emailChangeRoutes(service: EmailChangeService, throttle: MiddlewareHandler<AppEnv>) {
  const router = createRouter();
  router.openapi({ ...changeRoute, middleware: [requireAuth, sensitive, throttle] }, async (c) =>
    c.json(await service.requestChange(callerOf(c), c.req.valid('json')), 202),
  );
  router.openapi({ ...cancelRoute, middleware: [requireAuth, throttle] }, async (c) => {
    await service.cancelChange(currentAuth(c).user.id);
    return c.body(null, 204);
  });
  return router;
}

/** Mounted under /auth: the link works signed in or out, in any browser (the Origin check applies as to sign-in). */
export function confirmEmailRoutes(service: EmailChangeService) {
  const router = createRouter();
  router.openapi(confirmRoute, async (c) => c.json(await service.confirm(c.req.valid('json').token), 200));
  return router;
}
