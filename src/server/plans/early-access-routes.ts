import { createRoute } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { earlyAccessInputSchema, earlyAccessViewSchema } from '../../shared/early-access-api';
import { INPUT_FALLBACK_MESSAGE } from '../../shared/marketplace';
import { objectBody } from '../http/body';
import { errorResponses, jsonBody } from '../http/openapi';
import { currentAuth, requireAuth } from '../http/session';
import type { AppEnv } from '../http/types';
import { createRouter } from '../http/validation';
import type { EarlyAccess } from './early-access';

const tags = ['account'];
const answer = (description: string) => ({
  200: { description, content: { 'application/json': { schema: earlyAccessViewSchema } } },
});

const viewRoute = createRoute({
  method: 'get',
  path: '/early-access',
  tags,
  responses: {
    ...answer("'Try new features first': whether early-access features are on for me, my saved switch, my plan has it"),
    ...errorResponses(401),
  },
});

const setRoute = createRoute({
  method: 'put',
  path: '/early-access',
  tags,
  request: { body: jsonBody(objectBody(earlyAccessInputSchema, INPUT_FALLBACK_MESSAGE)) },
  responses: {
    ...answer('The switch saved. Community only: on another plan 403 plan_required and nothing changes'),
    ...errorResponses(400, 401, 403, 415, 429),
  },
});

/** `/account/early-access` (issue 38, decision 035): the signed-in member's own switch. */
export function earlyAccessRoutes(service: EarlyAccess, throttle: MiddlewareHandler<AppEnv>) {
  const router = createRouter();
  router.openapi({ ...viewRoute, middleware: [requireAuth] }, async (c) =>
    c.json(await service.view(currentAuth(c).user.id), 200),
  );
  router.openapi({ ...setRoute, middleware: [requireAuth, throttle] }, async (c) =>
    c.json(await service.set(currentAuth(c).user.id, c.req.valid('json').on), 200),
  );
  return router;
}
