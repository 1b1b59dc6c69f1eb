import { createRoute } from '@hono/zod-openapi';
import {
  idParamSchema,
  INPUT_FALLBACK_MESSAGE,
  rideInputSchema,
  rideSchema,
  rideStopsInputSchema,
} from '../../shared/marketplace';
import type { MiddlewareHandler } from 'hono';
import { notFound } from '../core/domain-error';
import { objectBody } from '../http/body';
import { listingRoutes } from '../http/listing-routes';
import { errorResponses, jsonBody } from '../http/openapi';
import { notFoundOnBadId } from '../http/params';
import { currentAuth } from '../http/session';
import type { AppEnv } from '../http/types';
import { RIDE_NOT_FOUND, type RideService } from './service';

const rideRoute = createRoute({
  method: 'get',
  path: '/{id}',
  tags: ['rides'],
  request: { params: idParamSchema },
  responses: {
    200: {
      description:
        "One ride: my own in any state; someone else's as Browse Rides would show it to me (active, departing today or later, no block, driver not suspended). Otherwise 404, as for an unknown or malformed id",
      content: { 'application/json': { schema: rideSchema } },
    },
    ...errorResponses(401, 404),
  },
});

const stopsRoute = (throttle: MiddlewareHandler<AppEnv>) =>
  createRoute({
    method: 'put',
    path: '/{id}/stops',
    tags: ['rides'],
    middleware: [throttle],
    request: { params: idParamSchema, body: jsonBody(objectBody(rideStopsInputSchema, INPUT_FALLBACK_MESSAGE)) },
    responses: {
      200: {
        description:
          "My ride with its stops replaced, in order ([] removes them). Stops are Plus and Community's: on Free only [] (403 plan_required). Someone else's ride or an unknown id: 404",
        content: { 'application/json': { schema: rideSchema } },
      },
      ...errorResponses(400, 401, 403, 404, 413, 429),
    },
  });

export function rideRoutes(service: RideService, throttle: MiddlewareHandler<AppEnv>) {
  const router = listingRoutes(
    {
      tag: 'rides',
      input: rideInputSchema(),
      item: rideSchema,
      notFoundMessage: RIDE_NOT_FOUND,
      describe: {
        mine: 'My rides, soonest departure first',
        browse:
          'Active rides departing today or later, soonest first; filters (docs/places.md): near + within (either end within the radius, nearest first, with distance_miles), from/to (departure date), q (words in the route and notes)',
        created: 'Ride posted',
        deleted: 'Ride deleted',
      },
    },
    service,
    throttle,
  );
  // After '/mine' and '/browse' (registered by listingRoutes), so those static paths win.
  router.openapi(
    rideRoute,
    async (c) => {
      const ride = await service.get(currentAuth(c).user.id, c.req.valid('param').id);
      if (!ride) throw notFound(RIDE_NOT_FOUND);
      return c.json(ride, 200);
    },
    notFoundOnBadId(RIDE_NOT_FOUND),
  );
  router.openapi(
    stopsRoute(throttle),
    async (c) => {
      const { id } = c.req.valid('param');
      return c.json(await service.replaceStops(currentAuth(c).user.id, id, c.req.valid('json').stops), 200);
    },
    notFoundOnBadId(RIDE_NOT_FOUND),
  );
  return router;
}
