import { createRoute } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { requestDetailSchema } from '../../shared/lifecycle';
import { deliveryRequestSchema, idParamSchema, requestInputSchema } from '../../shared/marketplace';
import { listingRoutes } from '../http/listing-routes';
import { errorResponses } from '../http/openapi';
import { notFoundOnBadId } from '../http/params';
import { currentAuth } from '../http/session';
import type { AppEnv } from '../http/types';
import { REQUEST_NOT_FOUND, type RequestService } from './service';

const detailRoute = createRoute({
  method: 'get',
  path: '/{id}',
  tags: ['requests'],
  request: { params: idParamSchema },
  responses: {
    200: {
      description: "One of my requests with its pending offers (oldest first) and the chosen booking; others' are 404",
      content: { 'application/json': { schema: requestDetailSchema } },
    },
    ...errorResponses(401, 404),
  },
});

export function requestRoutes(service: RequestService, throttle: MiddlewareHandler<AppEnv>) {
  const router = listingRoutes(
    {
      tag: 'requests',
      input: requestInputSchema(),
      item: deliveryRequestSchema,
      notFoundMessage: REQUEST_NOT_FOUND,
      describe: {
        mine: 'My requests, newest first, each with its number of pending offers (offer_count)',
        browse:
          'Open requests, newest first; filters (docs/places.md): near + within (pickup or delivery within the radius, nearest first, with distance_miles), from/to (needed-by date; undated ones match), q (words in the title, description and locations)',
        created: 'Request created',
        deleted:
          'Request deleted (soft: see decision 005); its pending offers are declined. 409 confirmed_booking_exists while a driver is chosen',
      },
      deleteMayConflict: true,
    },
    service,
    throttle,
  );
  // After '/mine' and '/browse' (registered by listingRoutes), so those static paths win.
  router.openapi(
    detailRoute,
    async (c) => c.json(await service.detail(currentAuth(c).user.id, c.req.valid('param').id), 200),
    notFoundOnBadId(REQUEST_NOT_FOUND),
  );
  return router;
}
