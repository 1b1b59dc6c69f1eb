import { createRoute } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { INPUT_FALLBACK_MESSAGE } from '../../shared/marketplace';
import {
  PHONE_CODE_MINUTES,
  PHONE_SENDS_PER_HOUR,
  phoneCodeSchema,
  phoneInputSchema,
  phoneStateSchema,
} from '../../shared/verification';
import { objectBody } from '../http/body';
import { errorResponses, jsonBody } from '../http/openapi';
import { currentAuth, requireAuth } from '../http/session';
import type { AppEnv } from '../http/types';
import { createRouter } from '../http/validation';
import type { PhoneVerificationService } from './phone-service';

const tags = ['verification'];
const stateContent = { 'application/json': { schema: phoneStateSchema } };

const stateRoute = createRoute({
  method: 'get',
  path: '/phone',
  tags,
  summary: "Settings 'Phone number': my verified number and the code waiting, if any",
  responses: {
    200: { description: 'Numbers in US national form', content: stateContent },
    ...errorResponses(401),
  },
});

const sendRoute = createRoute({
  method: 'post',
  path: '/phone',
  tags,
  summary: "'Send code': text a code to a US number",
  request: { body: jsonBody(objectBody(phoneInputSchema, INPUT_FALLBACK_MESSAGE)) },
  responses: {
    202: {
      description:
        `A ${PHONE_CODE_MINUTES}-minute code is on its way by SMS (sent by a job, retried on failure); it replaces ` +
        `any code waiting. At most ${PHONE_SENDS_PER_HOUR} per hour per account and per number (429).`,
      content: stateContent,
    },
    ...errorResponses(400, 401, 409, 415, 429),
  },
});

const confirmRoute = createRoute({
  method: 'post',
  path: '/phone/confirm',
  tags,
  summary: "'Verify': the code from the SMS",
  request: { body: jsonBody(objectBody(phoneCodeSchema, INPUT_FALLBACK_MESSAGE)) },
  responses: {
    200: { description: 'The number is verified on my account; the code is used up', content: stateContent },
    ...errorResponses(400, 401, 409, 415, 429),
  },
});

const removeRoute = createRoute({
  method: 'delete',
  path: '/phone',
  tags,
  summary: "'Remove number': my number, 'Phone verified' and any code waiting go",
  responses: {
    204: { description: 'No number on my account now' },
    ...errorResponses(401, 429),
  },
});

/**
 * `/account/phone`: the signed-in person's own number only (the user id is the session's). Writes pass the write
 * throttle; the Idempotency-Key of every write is handled by the app's middleware. A wrong code: 400 `wrong_code`
 * with the tries left (PHONE_CODE_TRIES); no working code: 400 `phone_code_expired`.
 */
export function phoneVerificationRoutes(service: PhoneVerificationService, throttle: MiddlewareHandler<AppEnv>) {
  const router = createRouter();
  router.openapi({ ...stateRoute, middleware: [requireAuth] }, async (c) =>
    c.json(await service.state(currentAuth(c).user.id), 200),
  );
  router.openapi({ ...sendRoute, middleware: [requireAuth, throttle] }, async (c) =>
    c.json(await service.requestCode(currentAuth(c).user.id, c.req.valid('json')), 202),
  );
  router.openapi({ ...confirmRoute, middleware: [requireAuth, throttle] }, async (c) =>
    c.json(await service.confirm(currentAuth(c).user.id, c.req.valid('json')), 200),
  );
  router.openapi({ ...removeRoute, middleware: [requireAuth, throttle] }, async (c) => {
    await service.remove(currentAuth(c).user.id);
    return c.body(null, 204);
  });
  return router;
}
