import { createRoute, z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { INPUT_FALLBACK_MESSAGE } from '../../shared/marketplace';
import {
  disableTwoFactorSchema,
  enableTwoFactorSchema,
  RECENT_CHECK_MINUTES,
  recoveryCodesSchema,
  twoFactorSetupSchema,
  twoFactorStatusSchema,
} from '../../shared/two-factor';
import { objectBody } from '../http/body';
import { errorResponses, jsonBody } from '../http/openapi';
import { sensitive, shownOnce } from '../http/sensitive';
import { currentAuth, requireAuth } from '../http/session';
import type { AppEnv } from '../http/types';
import { createRouter } from '../http/validation';
import { callerOf } from '../account';
import type { TwoFactorService } from './service';

const tags = ['account'];
const RECENT = `Needs a password (+ code) check within ${RECENT_CHECK_MINUTES} minutes, else 403 reauth_required.`;

/** No input: JSON `{}` or no body at all. */
const emptyBody = {
  required: false,
  content: { 'application/json': { schema: objectBody(z.object({}), INPUT_FALLBACK_MESSAGE) } },
} as const;

const statusRoute = createRoute({
  method: 'get',
  path: '/two-factor',
  tags,
  responses: {
    200: {
      description:
        'Whether two-factor is on, how many recovery codes are left, whether this session was checked lately',
      content: { 'application/json': { schema: twoFactorStatusSchema } },
    },
    ...errorResponses(401),
  },
});

const setUpRoute = createRoute({
  method: 'post',
  path: '/two-factor/setup',
  tags,
  request: { body: emptyBody },
  responses: {
    200: {
      description: `A new secret for the authenticator app, replacing an unfinished set-up. ${RECENT}`,
      content: { 'application/json': { schema: twoFactorSetupSchema } },
    },
    ...errorResponses(400, 401, 403, 409, 429),
  },
});

const enableRoute = createRoute({
  method: 'post',
  path: '/two-factor/enable',
  tags,
  request: { body: jsonBody(objectBody(enableTwoFactorSchema, INPUT_FALLBACK_MESSAGE)) },
  responses: {
    200: {
      description:
        'Two-factor is on: the recovery codes, shown once. This session is aal2; every other session of mine must ' +
        "give a code now; a 'two_factor_enabled' notice and e-mail were sent",
      content: { 'application/json': { schema: recoveryCodesSchema } },
    },
    ...errorResponses(400, 401, 409, 415, 429),
  },
});

const disableRoute = createRoute({
  method: 'post',
  path: '/two-factor/disable',
  tags,
  request: { body: jsonBody(objectBody(disableTwoFactorSchema, INPUT_FALLBACK_MESSAGE)) },
  responses: {
    204: {
      description:
        'Two-factor is off: secret and recovery codes deleted, sessions still waiting for a code ended, a ' +
        `'two_factor_disabled' notice and e-mail sent. ${RECENT}`,
    },
    ...errorResponses(400, 401, 403, 409, 415, 429),
  },
});

const recoveryCodesRoute = createRoute({
  method: 'post',
  path: '/two-factor/recovery-codes',
  tags,
  request: { body: emptyBody },
  responses: {
    200: {
      description: `New recovery codes, shown once; the old ones stop working. ${RECENT}`,
      content: { 'application/json': { schema: recoveryCodesSchema } },
    },
    ...errorResponses(400, 401, 403, 409, 429),
  },
});

/** `/account/two-factor...`: Settings 'Two-factor authentication' of the signed-in person. */
export function twoFactorRoutes(service: TwoFactorService, throttle: MiddlewareHandler<AppEnv>) {
  const router = createRouter();

  router.openapi({ ...statusRoute, middleware: [requireAuth] }, async (c) =>
    c.json(await service.status(callerOf(c)), 200),
  );
  // The set-up key and the recovery codes are shown once: never stored for a repeat (http/sensitive.ts).
  router.openapi({ ...setUpRoute, middleware: [requireAuth, shownOnce, throttle] }, async (c) =>
    c.json(await service.setUp(callerOf(c), currentAuth(c).user.email), 200),
  );
  router.openapi({ ...enableRoute, middleware: [requireAuth, shownOnce, throttle] }, async (c) =>
    c.json(await service.enable(callerOf(c), c.req.valid('json').code), 200),
  );
  router.openapi({ ...disableRoute, middleware: [requireAuth, sensitive, throttle] }, async (c) => {
    await service.disable(callerOf(c), c.req.valid('json').code);
    return c.body(null, 204);
  });
  router.openapi({ ...recoveryCodesRoute, middleware: [requireAuth, shownOnce, throttle] }, async (c) =>
    c.json(await service.renewRecoveryCodes(callerOf(c)), 200),
  );

  return router;
}
