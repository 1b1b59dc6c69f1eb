import { createRoute, z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import {
  adminDisputeQuerySchema,
  adminDisputeSchema,
  disputeDecisionSchema,
  disputeReportSchema,
  disputeResponseSchema,
} from '../../shared/disputes';
import { bookingDetailSchema, type BookingDetail } from '../../shared/lifecycle';
import { idParamSchema, INPUT_FALLBACK_MESSAGE, pageQuerySchema, pageSchema } from '../../shared/marketplace';
import { notFound } from '../core/domain-error';
import { BOOKING_NOT_FOUND } from '../bookings';
import { objectBody } from '../http/body';
import { errorResponses, jsonBody } from '../http/openapi';
import { notFoundOnBadId } from '../http/params';
import { currentAuth, requireAdmin, requireAuth } from '../http/session';
import type { AppEnv } from '../http/types';
import { createRouter } from '../http/validation';
import { DISPUTE_NOT_FOUND, type DisputeService } from './service';

/** The routes that take up to DISPUTE_PHOTOS_MAX photos: app-middleware.ts gives them a larger body limit. */
export const DISPUTE_UPLOAD_PATH = /^\/api\/bookings\/[^/]+\/dispute(\/response)?\/?$/;

const photosField = z
  .any()
  .optional()
  .openapi({
    type: 'array',
    items: { type: 'string', format: 'binary' },
    description: 'Up to 3 photos (the field repeated): JPEG, PNG or WebP, ≤ 10 MB each',
  });

const reportForm = disputeReportSchema.extend({ photos: photosField });
const responseForm = disputeResponseSchema.extend({ photos: photosField });

const detail = (description: string) => ({
  200: { description, content: { 'application/json': { schema: bookingDetailSchema } } },
});

const reportRoute = createRoute({
  method: 'post',
  path: '/{id}/dispute',
  tags: ['disputes'],
  request: {
    params: idParamSchema,
    body: { required: true, content: { 'multipart/form-data': { schema: reportForm } } },
  },
  responses: {
    ...detail(
      "'Report a problem' on a paid booking, from pickup until 48 hours after completion: while the money is held it is put on hold; after completion a requester's 'Damaged' or 'Not delivered' is a Delivery Guarantee claim",
    ),
    ...errorResponses(400, 401, 404, 409, 413, 415, 429),
  },
});

const responseRoute = createRoute({
  method: 'post',
  path: '/{id}/dispute/response',
  tags: ['disputes'],
  request: {
    params: idParamSchema,
    body: { required: true, content: { 'multipart/form-data': { schema: responseForm } } },
  },
  responses: {
    ...detail("The other person's one response to the open dispute"),
    ...errorResponses(400, 401, 404, 409, 413, 415, 429),
  },
});

const photoRoute = createRoute({
  method: 'get',
  path: '/{id}/photos/{photoId}',
  tags: ['disputes'],
  request: { params: idParamSchema.extend({ photoId: idParamSchema.shape.id }) },
  responses: {
    200: {
      description: 'A dispute photo (WebP, no metadata), for the booking’s two people and moderators only',
      content: { 'image/webp': { schema: z.string().openapi({ format: 'binary' }) } },
    },
    ...errorResponses(401, 404),
  },
});

/** `photos` as the form gives it: Hono's form parser makes a repeated field an array. */
const photosOf = (form: { photos?: unknown }) => form.photos;

/** `POST /api/bookings/:id/dispute` and `/dispute/response`: signed in, write-throttled. */
export function bookingDisputeRoutes(
  service: DisputeService,
  reader: { detail: (viewerId: string, bookingId: string) => Promise<BookingDetail> },
  throttle: MiddlewareHandler<AppEnv>,
) {
  const router = createRouter();
  router.use('*', requireAuth);
  const byId = notFoundOnBadId(BOOKING_NOT_FOUND);

  router.openapi(
    { ...reportRoute, middleware: [throttle] },
    async (c) => {
      const userId = currentAuth(c).user.id;
      const id = c.req.valid('param').id;
      const form = c.req.valid('form');
      await service.report(userId, id, { ...form, photos: photosOf(form) });
      return c.json(await reader.detail(userId, id), 200);
    },
    byId,
  );

  router.openapi(
    { ...responseRoute, middleware: [throttle] },
    async (c) => {
      const userId = currentAuth(c).user.id;
      const id = c.req.valid('param').id;
      const form = c.req.valid('form');
      await service.respond(userId, id, { details: form.details, photos: photosOf(form) });
      return c.json(await reader.detail(userId, id), 200);
    },
    byId,
  );

  return router;
}

/** `GET /api/disputes/:id/photos/:photoId`. */
export function disputePhotoRoutes(service: DisputeService) {
  const router = createRouter();
  router.use('*', requireAuth);
  router.openapi(
    photoRoute,
    async (c) => {
      const { user } = currentAuth(c);
      const { id, photoId } = c.req.valid('param');
      const image = await service.photo({ id: user.id, isAdmin: user.is_admin }, id, photoId);
      if (!image) throw notFound('Photo not found.');
      // Only the booking's two people and moderators may see it, and it never changes: no shared cache may keep it.
      c.header('Cache-Control', 'private, max-age=86400');
      c.header('Content-Type', 'image/webp');
      return c.body(new Uint8Array(image), 200);
    },
    notFoundOnBadId('Photo not found.'),
  );
  return router;
}

const adminListRoute = createRoute({
  method: 'get',
  path: '/disputes',
  hide: true,
  request: { query: pageQuerySchema.extend(adminDisputeQuerySchema.shape) },
  responses: {
    200: {
      description: 'Disputes by state: open ones oldest first, resolved ones newest first',
      content: { 'application/json': { schema: pageSchema(adminDisputeSchema) } },
    },
    ...errorResponses(400, 404),
  },
});

const adminDecisionRoute = createRoute({
  method: 'post',
  path: '/disputes/{id}/decision',
  hide: true,
  request: {
    params: idParamSchema,
    body: jsonBody(objectBody(disputeDecisionSchema, INPUT_FALLBACK_MESSAGE)),
  },
  responses: {
    200: {
      description: 'The one decision on an open dispute, with its money moved and both people told',
      content: { 'application/json': { schema: adminDisputeSchema } },
    },
    ...errorResponses(400, 404, 409, 413),
  },
});

/** `/api/admin/disputes...` (admins only; 404 for everyone else). */
export function adminDisputeRoutes(service: DisputeService, throttle: MiddlewareHandler<AppEnv>) {
  const router = createRouter();
  router.use('*', requireAdmin);
  router.openapi(adminListRoute, async (c) => {
    const { state, ...page } = c.req.valid('query');
    return c.json(await service.list(state, page), 200);
  });
  router.openapi(
    { ...adminDecisionRoute, middleware: [throttle] },
    async (c) =>
      c.json(await service.decide(currentAuth(c).user.id, c.req.valid('param').id, c.req.valid('json')), 200),
    notFoundOnBadId(DISPUTE_NOT_FOUND),
  );
  return router;
}
