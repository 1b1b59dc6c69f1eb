import { rideInputSchema, rideSchema } from '../../shared/marketplace';
import type { MiddlewareHandler } from 'hono';
import { listingRoutes } from '../http/listing-routes';
import type { AppEnv } from '../http/types';
import type { RideService } from './service';

const RIDE_NOT_FOUND = 'Ride not found.';

export function rideRoutes(service: RideService, throttle: MiddlewareHandler<AppEnv>) {
  return listingRoutes(
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
}
