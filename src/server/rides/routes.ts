import { createRoute } from '@hono/zod-openapi';
import {
  idParamSchema,
  INPUT_FALLBACK_MESSAGE,
  pageQuerySchema,
  pageSchema,
  rideInputSchema,
  rideSchema,
} from '../../shared/marketplace';
import { notFound } from '../http/app-error';
import { objectBody } from '../http/body';
import { errorResponses, jsonBody } from '../http/openapi';
import { notFoundOnBadId } from '../http/params';
import { currentAuth, requireAuth } from '../http/session';
import { createRouter } from '../http/validation';
import type { RideService } from './service';

export const RIDE_NOT_FOUND = 'Ride not found.';

const ridePage = pageSchema(rideSchema);

const mineRoute = createRoute({
  method: 'get',
  path: '/mine',
  tags: ['rides'],
  request: { query: pageQuerySchema },
  responses: {
    200: { description: 'My rides, soonest departure first', content: { 'application/json': { schema: ridePage } } },
    ...errorResponses(400, 401),
  },
});

const browseRoute = createRoute({
  method: 'get',
  path: '/browse',
  tags: ['rides'],
  request: { query: pageQuerySchema },
  responses: {
    200: {
      description: 'Active rides departing today or later, soonest first',
      content: { 'application/json': { schema: ridePage } },
    },
    ...errorResponses(400, 401),
  },
});

const createRideRoute = createRoute({
  method: 'post',
  path: '/',
  tags: ['rides'],
  request: { body: jsonBody(objectBody(rideInputSchema(), INPUT_FALLBACK_MESSAGE)) },
  responses: {
    201: { description: 'Ride posted', content: { 'application/json': { schema: rideSchema } } },
    ...errorResponses(400, 401, 403, 413),
  },
});

const deleteRoute = createRoute({
  method: 'delete',
  path: '/{id}',
  tags: ['rides'],
  request: { params: idParamSchema },
  responses: { 204: { description: 'Ride deleted' }, ...errorResponses(401, 403, 404) },
});

export function rideRoutes(service: RideService) {
  const router = createRouter();
  router.use('*', requireAuth);

  router.openapi(mineRoute, async (c) => {
    const { user } = currentAuth(c);
    return c.json(await service.listMine(user.id, c.req.valid('query')), 200);
  });

  router.openapi(browseRoute, async (c) => {
    const { user } = currentAuth(c);
    return c.json(await service.browse(user.id, c.req.valid('query')), 200);
  });

  router.openapi(createRideRoute, async (c) => {
    const { user } = currentAuth(c);
    return c.json(await service.create(user, c.req.valid('json')), 201);
  });

  router.openapi(
    deleteRoute,
    async (c) => {
      const { user } = currentAuth(c);
      if (!(await service.remove(user.id, c.req.valid('param').id))) throw notFound(RIDE_NOT_FOUND);
      return c.body(null, 204);
    },
    notFoundOnBadId(RIDE_NOT_FOUND),
  );

  return router;
}
