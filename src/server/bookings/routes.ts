import { createRoute } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import {
  acceptRequestSchema,
  BOOKING_FALLBACK_MESSAGE,
  bookingSchema,
  pageQuerySchema,
  pageSchema,
} from '../../shared/marketplace';
import { objectBody } from '../http/body';
import { errorResponses, jsonBody } from '../http/openapi';
import { currentAuth, requireAuth } from '../http/session';
import type { AppEnv } from '../http/types';
import { createRouter } from '../http/validation';
import type { BookingService } from './service';

const mineRoute = createRoute({
  method: 'get',
  path: '/mine',
  tags: ['bookings'],
  request: { query: pageQuerySchema },
  responses: {
    200: {
      description: 'Bookings where I am the driver, newest first',
      content: { 'application/json': { schema: pageSchema(bookingSchema) } },
    },
    ...errorResponses(400, 401),
  },
});

const acceptRoute = createRoute({
  method: 'post',
  path: '/',
  tags: ['bookings'],
  request: { body: jsonBody(objectBody(acceptRequestSchema, BOOKING_FALLBACK_MESSAGE)) },
  responses: {
    201: {
      description: "Request accepted: a 'pending' booking with me as the driver",
      content: { 'application/json': { schema: bookingSchema } },
    },
    ...errorResponses(400, 401, 403, 409, 413, 429),
  },
});

/** `throttle` guards accept (see writeThrottle in limits/middleware.ts). */
export function bookingRoutes(service: BookingService, throttle: MiddlewareHandler<AppEnv>) {
  const router = createRouter();
  router.use('*', requireAuth);

  router.openapi(mineRoute, async (c) => {
    const { user } = currentAuth(c);
    return c.json(await service.listMine(user.id, c.req.valid('query')), 200);
  });

  router.openapi({ ...acceptRoute, middleware: [throttle] }, async (c) => {
    const { user } = currentAuth(c);
    // Only request_id is read from the body: the driver is the session's user and the status is 'pending'.
    return c.json(await service.accept(user.id, c.req.valid('json').request_id), 201);
  });

  return router;
}
