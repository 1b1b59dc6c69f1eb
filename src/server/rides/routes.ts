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
        browse: 'Active rides departing today or later, soonest first',
        created: 'Ride posted',
        deleted: 'Ride deleted',
      },
    },
    service,
    throttle,
  );
}
