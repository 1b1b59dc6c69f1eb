import { createRoute } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { idParamSchema, INPUT_FALLBACK_MESSAGE } from '../../shared/marketplace';
import { bookingReviewsSchema, replyInputSchema, reviewInputSchema, reviewSchema } from '../../shared/reviews';
import { objectBody } from '../http/body';
import { errorResponses, jsonBody } from '../http/openapi';
import { notFoundOnBadId } from '../http/params';
import { currentAuth, requireAuth } from '../http/session';
import type { AppEnv } from '../http/types';
import { createRouter } from '../http/validation';
import { BOOKING_NOT_FOUND, REVIEW_NOT_FOUND, type ReviewService } from './service';

const bookingReviewsRoute = createRoute({
  method: 'get',
  path: '/{id}/review',
  tags: ['reviews'],
  request: { params: idParamSchema },
  responses: {
    200: {
      description:
        "The booking's review part: whether reviewing is open and until when, my review (published or not), the " +
        "other's review of me once published, and whether they have reviewed; for its driver and requester only",
      content: { 'application/json': { schema: bookingReviewsSchema } },
    },
    ...errorResponses(401, 404),
  },
});

const submitRoute = createRoute({
  method: 'post',
  path: '/{id}/review',
  tags: ['reviews'],
  request: { params: idParamSchema, body: jsonBody(objectBody(reviewInputSchema, INPUT_FALLBACK_MESSAGE)) },
  responses: {
    201: {
      description:
        'Reviewed. Hidden from the other person until they have reviewed too (then both are published at once) or ' +
        'the 14-day period ends',
      content: { 'application/json': { schema: bookingReviewsSchema } },
    },
    ...errorResponses(400, 401, 403, 404, 409, 413, 429),
  },
});

const replyRoute = createRoute({
  method: 'post',
  path: '/{id}/reply',
  tags: ['reviews'],
  request: { params: idParamSchema, body: jsonBody(objectBody(replyInputSchema, INPUT_FALLBACK_MESSAGE)) },
  responses: {
    200: {
      description: 'The review with my reply (only the reviewed person, once, under a published review)',
      content: { 'application/json': { schema: reviewSchema } },
    },
    ...errorResponses(400, 401, 403, 404, 409, 413, 429),
  },
});

export interface ReviewRouteDeps {
  service: ReviewService;
  /** The general write throttle (limits/middleware.ts). */
  throttle: MiddlewareHandler<AppEnv>;
}

/** `/bookings/{id}/review`: mounted beside the booking routes. */
export function bookingReviewRoutes({ service, throttle }: ReviewRouteDeps) {
  const router = createRouter();
  router.use('*', requireAuth);
  const byId = notFoundOnBadId(BOOKING_NOT_FOUND);

  router.openapi(
    bookingReviewsRoute,
    async (c) => c.json(await service.read(currentAuth(c).user.id, c.req.valid('param').id), 200),
    byId,
  );

  router.openapi(
    { ...submitRoute, middleware: [throttle] },
    async (c) =>
      c.json(await service.submit(currentAuth(c).user.id, c.req.valid('param').id, c.req.valid('json')), 201),
    byId,
  );

  return router;
}

/** `/reviews/{id}/reply`. */
export function reviewRoutes({ service, throttle }: ReviewRouteDeps) {
  const router = createRouter();
  router.use('*', requireAuth);

  router.openapi(
    { ...replyRoute, middleware: [throttle] },
    async (c) =>
      c.json(await service.reply(currentAuth(c).user.id, c.req.valid('param').id, c.req.valid('json').body), 200),
    notFoundOnBadId(REVIEW_NOT_FOUND),
  );

  return router;
}
