import { createRoute } from '@hono/zod-openapi';
import { idParamSchema, rideInputSchema, rideSchema } from '../../shared/marketplace';
import type { MiddlewareHandler } from 'hono';
import { notFound } from '../core/domain-error';
import { listingRoutes } from '../http/listing-routes';
import { errorResponses } from '../http/openapi';
import { notFoundOnBadId } from '../http/params';
import { currentAuth } from '../http/session';
import type { AppEnv } from '../http/types';
import type { RideService } from './service';

const RIDE_NOT_FOUND = 'Ride not found.';

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
  return router;
}
