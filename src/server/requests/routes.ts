import { deliveryRequestSchema, requestInputSchema } from '../../shared/marketplace';
import type { MiddlewareHandler } from 'hono';
import { listingRoutes } from '../http/listing-routes';
import type { AppEnv } from '../http/types';
import type { RequestService } from './service';

const REQUEST_NOT_FOUND = 'Request not found.';

export function requestRoutes(service: RequestService, throttle: MiddlewareHandler<AppEnv>) {
  return listingRoutes(
    {
      tag: 'requests',
      input: requestInputSchema(),
      item: deliveryRequestSchema,
      notFoundMessage: REQUEST_NOT_FOUND,
      describe: {
        mine: 'My requests, newest first',
        browse: 'Open requests, newest first',
        created: 'Request created',
        deleted: 'Request deleted (soft: see decision 005)',
      },
    },
    service,
    throttle,
  );
}
