import { createRoute } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { alongRoutePageSchema } from '../../shared/along-route';
import { idParamSchema, INPUT_FALLBACK_MESSAGE, pageQuerySchema } from '../../shared/marketplace';
import { alongRouteCountSchema, alongRouteQuerySchema, askInputSchema, rideAskSchema } from '../../shared/places';
import { objectBody } from '../http/body';
import { errorResponses, jsonBody } from '../http/openapi';
import { notFoundOnBadId } from '../http/params';
import { currentAuth, requireAuth } from '../http/session';
import type { AppEnv } from '../http/types';
import { createRouter } from '../http/validation';
import type { AskService } from './asks';
import { RIDE_NOT_FOUND, type AlongRouteService } from './service';

const listRoute = createRoute({
  method: 'get',
  path: '/{id}/along-route',
  tags: ['rides'],
  request: { params: idParamSchema, query: pageQuerySchema.extend(alongRouteQuerySchema.shape) },
  responses: {
    200: {
      description:
        "Open requests along my ride (the ride's driver only): asked first, then by the detour's added miles. 409 route_needs_places when the ride's origin or destination is free text",
      content: { 'application/json': { schema: alongRoutePageSchema } },
    },
    ...errorResponses(400, 401, 404, 409),
  },
});

const countRoute = createRoute({
  method: 'get',
  path: '/{id}/along-route/count',
  tags: ['rides'],
  request: { params: idParamSchema, query: alongRouteQuerySchema },
  responses: {
    200: {
      description: 'How many requests the along-route list holds',
      content: { 'application/json': { schema: alongRouteCountSchema } },
    },
    ...errorResponses(400, 401, 404, 409),
  },
});

const askRoute = createRoute({
  method: 'post',
  path: '/{id}/asks',
  tags: ['rides'],
  request: { params: idParamSchema, body: jsonBody(objectBody(askInputSchema, INPUT_FALLBACK_MESSAGE)) },
  responses: {
    201: {
      description: "Asked: the driver is notified ('ride_ask')",
      content: { 'application/json': { schema: rideAskSchema } },
    },
    200: { description: 'Asked before (nothing new)', content: { 'application/json': { schema: rideAskSchema } } },
    ...errorResponses(400, 401, 403, 404, 409, 413, 429),
  },
});

/** `/api/rides/{id}/along-route`, `/count` and `/asks`; every route needs a session. */
export function alongRouteRoutes(service: AlongRouteService, asks: AskService, throttle: MiddlewareHandler<AppEnv>) {
  const router = createRouter();
  router.use('/:id/along-route', requireAuth);
  router.use('/:id/along-route/*', requireAuth);
  router.use('/:id/asks', requireAuth);

  router.openapi(
    listRoute,
    async (c) => {
      const { corridor, ...page } = c.req.valid('query');
      return c.json(await service.list(currentAuth(c).user.id, c.req.valid('param').id, corridor, page), 200);
    },
    notFoundOnBadId(RIDE_NOT_FOUND),
  );

  router.openapi(
    countRoute,
    async (c) => {
      const { id } = c.req.valid('param');
      const count = await service.count(currentAuth(c).user.id, id, c.req.valid('query').corridor);
      return c.json({ count }, 200);
    },
    notFoundOnBadId(RIDE_NOT_FOUND),
  );

  router.openapi(
    { ...askRoute, middleware: [throttle] },
    async (c) => {
      const result = await asks.ask(currentAuth(c).user.id, c.req.valid('param').id, c.req.valid('json').request_id);
      return result.created ? c.json(result.ask, 201) : c.json(result.ask, 200);
    },
    notFoundOnBadId(RIDE_NOT_FOUND),
  );

  return router;
}
