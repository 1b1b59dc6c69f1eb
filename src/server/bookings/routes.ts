import { createRoute, z } from '@hono/zod-openapi';
import {
  bookingDetailSchema,
  bookingListRoleQuerySchema,
  cancelBookingSchema,
  completeBookingSchema,
  type BookingAction,
} from '../../shared/lifecycle';
import {
  acceptRequestSchema,
  BOOKING_FALLBACK_MESSAGE,
  bookingSchema,
  idParamSchema,
  INPUT_FALLBACK_MESSAGE,
  pageQuerySchema,
  pageSchema,
} from '../../shared/marketplace';
import { cardSchema } from '../../shared/payments';
import { notFound } from '../core/domain-error';
import { objectBody } from '../http/body';
import { sendPage } from '../http/listing-routes';
import { errorResponses, jsonBody } from '../http/openapi';
import { notFoundOnBadId } from '../http/params';
import { currentAuth, requireAuth } from '../http/session';
import { createRouter } from '../http/validation';
import type { WriteThrottle } from '../limits';
import type { BookingReader } from './detail';
import type { BookingService } from './service';
import { BOOKING_NOT_FOUND, type ActionInput, type Transitions } from './transitions';

/** The one route that takes a file: app.ts gives it a larger body limit than the rest of /api. */
export const PHOTO_UPLOAD_PATH = /^\/api\/bookings\/[^/]+\/complete\/?$/;

const mineRoute = createRoute({
  method: 'get',
  path: '/mine',
  tags: ['bookings'],
  request: { query: pageQuerySchema.extend(bookingListRoleQuerySchema.shape) },
  responses: {
    200: {
      description: 'My bookings, newest first: as the driver (role=driver, default) or on my requests (role=requester)',
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
      description: "Request accepted: a 'pending' booking (an offer) with me as the driver",
      content: { 'application/json': { schema: bookingSchema } },
    },
    ...errorResponses(400, 401, 403, 409, 413, 429),
  },
});

const detailResponse = (description: string) => ({
  200: { description, content: { 'application/json': { schema: bookingDetailSchema } } },
});

const detailRoute = createRoute({
  method: 'get',
  path: '/{id}',
  tags: ['bookings'],
  request: { params: idParamSchema },
  responses: {
    ...detailResponse('The booking as I see it (its driver or requester only) and the actions I may take now'),
    ...errorResponses(401, 404),
  },
});

const photoRoute = createRoute({
  method: 'get',
  path: '/{id}/photo',
  tags: ['bookings'],
  request: { params: idParamSchema },
  responses: {
    200: {
      description: 'The handoff photo (WebP, at most 1600 px, no metadata), for the booking’s two people only',
      content: { 'image/webp': { schema: z.string().openapi({ format: 'binary' }) } },
    },
    ...errorResponses(401, 404),
  },
});

const ACTION_DESCRIPTIONS: Record<Exclude<BookingAction, 'cancel' | 'complete' | 'choose'>, string> = {
  decline: 'The requester declines this pending offer',
  withdraw: 'The driver withdraws their pending offer (cancelled)',
  pickup: "The driver marks the item as picked up (once; the status stays 'confirmed')",
  receive: 'The requester marks the delivery as received: completed without the code',
};

/** The actions without input: JSON `{}` or no body at all. */
const emptyBody = {
  required: false,
  content: { 'application/json': { schema: objectBody(z.object({}), INPUT_FALLBACK_MESSAGE) } },
} as const;

const actionRoute = (action: keyof typeof ACTION_DESCRIPTIONS) =>
  createRoute({
    method: 'post',
    path: `/{id}/${action}`,
    tags: ['bookings'],
    request: { params: idParamSchema, body: emptyBody },
    responses: { ...detailResponse(ACTION_DESCRIPTIONS[action]), ...errorResponses(400, 401, 403, 404, 409, 429) },
  });

/**
 * choose: `{}` (or no body) on a request without compensation; to pay for one with compensation, `{ card }` (the test
 * provider's card fields) or `{ payment_method }` (a payment method made by Stripe's own card element).
 */
const chooseBody = z.object({
  card: cardSchema().optional(),
  payment_method: z
    .string()
    .regex(/^pm_[A-Za-z0-9_]{1,200}$/, 'Enter your card details again')
    .optional(),
});

const chooseRoute = createRoute({
  method: 'post',
  path: '/{id}/choose',
  tags: ['bookings'],
  request: {
    params: idParamSchema,
    body: {
      required: false,
      content: { 'application/json': { schema: objectBody(chooseBody, INPUT_FALLBACK_MESSAGE) } },
    },
  },
  responses: {
    ...detailResponse(
      'The requester chooses this driver: confirmed, the request matched, every other pending offer declined. On ' +
        'a request with compensation the card is charged and the payment held until the delivery is complete',
    ),
    ...errorResponses(400, 401, 402, 403, 404, 409, 413, 429),
  },
});

const cancelRoute = createRoute({
  method: 'post',
  path: '/{id}/cancel',
  tags: ['bookings'],
  request: { params: idParamSchema, body: jsonBody(objectBody(cancelBookingSchema, INPUT_FALLBACK_MESSAGE)) },
  responses: {
    ...detailResponse('Either person cancels a confirmed booking, with a reason; the request is open again'),
    ...errorResponses(400, 401, 403, 404, 409, 413, 429),
  },
});

const completeForm = z.object({
  code: completeBookingSchema.shape.code,
  photo: z.any().optional().openapi({ type: 'string', format: 'binary', description: 'JPEG, PNG or WebP, ≤ 10 MB' }),
});

const completeRoute = createRoute({
  method: 'post',
  path: '/{id}/complete',
  tags: ['bookings'],
  request: {
    params: idParamSchema,
    body: { required: true, content: { 'multipart/form-data': { schema: completeForm } } },
  },
  responses: {
    ...detailResponse("The driver completes the delivery with the requester's code (and an optional photo)"),
    ...errorResponses(400, 401, 403, 404, 409, 413, 415, 422, 429),
  },
});

export interface BookingRouteDeps {
  service: BookingService;
  reader: BookingReader;
  transitions: Transitions;
  /** Guards every write (see writeThrottle in limits/middleware.ts): an offer counts it in its statement, the moves in
   * their read (transitions.ts). */
  throttle: WriteThrottle;
}

export function bookingRoutes({ service, reader, transitions, throttle }: BookingRouteDeps) {
  const router = createRouter();
  router.use('*', requireAuth);
  const byId = notFoundOnBadId(BOOKING_NOT_FOUND);

  // Before '/{id}': the static path must win.
  router.openapi(mineRoute, async (c) => {
    const { user } = currentAuth(c);
    const { role, ...page } = c.req.valid('query');
    return sendPage(c, await service.listMine(user.id, page, role));
  });

  router.openapi(acceptRoute, async (c) => {
    const { user } = currentAuth(c);
    // Only request_id is read from the body: the driver is the session's user and the status is 'pending'.
    return c.json(await service.accept(user, c.req.valid('json').request_id, throttle.folded(user.id)), 201);
  });

  router.openapi(
    detailRoute,
    async (c) => c.json(await reader.detail(currentAuth(c).user.id, c.req.valid('param').id), 200),
    byId,
  );

  router.openapi(
    photoRoute,
    async (c) => {
      const image = await reader.photo(currentAuth(c).user.id, c.req.valid('param').id);
      if (!image) throw notFound('Photo not found.');
      // Only two people may see it, and it never changes: their browser may keep it, no shared cache may.
      c.header('Cache-Control', 'private, max-age=86400');
      c.header('Content-Type', 'image/webp');
      return c.body(new Uint8Array(image), 200);
    },
    byId,
  );

  /** Runs the move and answers the booking as it left it (a cancel's page is read after it). */
  const act = async (userId: string, id: string, action: BookingAction, input?: ActionInput) => {
    const page = await transitions.perform(userId, id, action, input);
    return page ? reader.view(userId, page) : reader.detail(userId, id);
  };

  for (const action of Object.keys(ACTION_DESCRIPTIONS) as (keyof typeof ACTION_DESCRIPTIONS)[]) {
    router.openapi(
      actionRoute(action),
      async (c) => c.json(await act(currentAuth(c).user.id, c.req.valid('param').id, action), 200),
      byId,
    );
  }

  router.openapi(
    chooseRoute,
    async (c) => {
      const body = c.req.valid('json') as z.infer<typeof chooseBody> | undefined;
      return c.json(
        await act(currentAuth(c).user.id, c.req.valid('param').id, 'choose', {
          source: body?.card
            ? { card: body.card }
            : body?.payment_method
              ? { paymentMethodId: body.payment_method }
              : undefined,
        }),
        200,
      );
    },
    byId,
  );

  router.openapi(
    cancelRoute,
    async (c) => {
      const { reason, details } = c.req.valid('json');
      const id = c.req.valid('param').id;
      return c.json(await act(currentAuth(c).user.id, id, 'cancel', { reason, details }), 200);
    },
    byId,
  );

  router.openapi(
    completeRoute,
    async (c) => {
      const { code, photo } = c.req.valid('form');
      const id = c.req.valid('param').id;
      return c.json(await act(currentAuth(c).user.id, id, 'complete', { code, photo: photo as unknown }), 200);
    },
    byId,
  );

  return router;
}
