import { createRoute, z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { idParamSchema, INPUT_FALLBACK_MESSAGE, pageQuerySchema, pageSchema } from '../../shared/marketplace';
import {
  adminIdCheckSchema,
  ID_CHECK_STATUSES,
  ID_CONSENT,
  ID_PHOTO_KINDS,
  ID_REJECT_REASON_KEYS,
  idCheckDecisionSchema,
  idCheckStateSchema,
} from '../../shared/verification';
import { notFound } from '../core/domain-error';
import { objectBody } from '../http/body';
import { errorResponses, jsonBody } from '../http/openapi';
import { notFoundOnBadId } from '../http/params';
import { currentAuth, requireAdmin, requireAuth } from '../http/session';
import type { AppEnv } from '../http/types';
import { createRouter } from '../http/validation';
import { ID_CHECK_NOT_FOUND, ID_PHOTO_NOT_FOUND, type IdCheckService } from './service';

/** 'Send for checking' carries two photos of up to 10 MB: app-middleware.ts gives it a larger body limit. */
export const ID_CHECK_UPLOAD_PATH = /^\/api\/account\/id-check\/?$/;

const photoField = (description: string) =>
  z.any().optional().openapi({ type: 'string', format: 'binary', description });

const sendForm = z.object({
  front: photoField('The front of a government ID: JPEG, PNG or WebP (by its bytes), ≤ 10 MB'),
  selfie: photoField('A selfie: JPEG, PNG or WebP (by its bytes), ≤ 10 MB'),
  consent: z
    .any()
    .optional()
    .openapi({ type: 'string', enum: ['true'], description: `Required: '${ID_CONSENT}'` }),
});

const stateResponse = (description: string) => ({
  200: { description, content: { 'application/json': { schema: idCheckStateSchema } } },
});

const stateRoute = createRoute({
  method: 'get',
  path: '/id-check',
  tags: ['verification'],
  responses: {
    ...stateResponse('My ID check: its state and when I may send another (never the photos)'),
    ...errorResponses(401),
  },
});

const sendRoute = createRoute({
  method: 'post',
  path: '/id-check',
  tags: ['verification'],
  request: { body: { required: true, content: { 'multipart/form-data': { schema: sendForm } } } },
  responses: {
    ...stateResponse('The check is stored with its two photos, encrypted, for a moderator'),
    ...errorResponses(400, 401, 409, 413, 415, 429),
  },
});

/** `GET/POST /api/account/id-check`: my own check only; signed in; the send is write-throttled. */
export function idCheckRoutes(service: IdCheckService, throttle: MiddlewareHandler<AppEnv>) {
  const router = createRouter();
  router.use('/id-check', requireAuth);
  router.openapi(stateRoute, async (c) => c.json(await service.state(currentAuth(c).user.id), 200));
  router.openapi({ ...sendRoute, middleware: [throttle] }, async (c) =>
    c.json(await service.submit(currentAuth(c).user.id, c.req.valid('form')), 200),
  );
  return router;
}

const adminListRoute = createRoute({
  method: 'get',
  path: '/verifications',
  hide: true,
  request: { query: pageQuerySchema },
  responses: {
    200: {
      description: 'ID checks waiting for a decision, oldest first',
      content: { 'application/json': { schema: pageSchema(adminIdCheckSchema) } },
    },
    ...errorResponses(400, 404),
  },
});

const adminPhotoRoute = createRoute({
  method: 'get',
  path: '/verifications/{id}/photos/{kind}',
  hide: true,
  request: { params: idParamSchema.extend({ kind: z.string() }) },
  responses: {
    200: {
      description: 'A pending check’s photo, decrypted (JPEG, no metadata); gone once the check is decided',
      content: { 'image/jpeg': { schema: z.string().openapi({ format: 'binary' }) } },
    },
    ...errorResponses(404),
  },
});

const decisionAnswer = z.object({
  id: z.string().uuid(),
  status: z.enum(ID_CHECK_STATUSES),
  decided_at: z.string(),
  reason: z.enum(ID_REJECT_REASON_KEYS).nullable(),
});

const adminDecisionRoute = createRoute({
  method: 'post',
  path: '/verifications/{id}/decision',
  hide: true,
  request: { params: idParamSchema, body: jsonBody(objectBody(idCheckDecisionSchema, INPUT_FALLBACK_MESSAGE)) },
  responses: {
    200: {
      description: 'The one decision on a pending check: its photos deleted, the person told',
      content: { 'application/json': { schema: decisionAnswer } },
    },
    ...errorResponses(400, 404, 409, 413),
  },
});

/** `/api/admin/verifications...` (admins only; 404 for everyone else, the check's owner included). */
export function adminIdCheckRoutes(service: IdCheckService, throttle: MiddlewareHandler<AppEnv>) {
  const router = createRouter();
  router.use('/verifications', requireAdmin);
  router.use('/verifications/*', requireAdmin);
  router.openapi(adminListRoute, async (c) => c.json(await service.list(c.req.valid('query')), 200));
  router.openapi(
    adminPhotoRoute,
    async (c) => {
      const { id, kind } = c.req.valid('param');
      const image = (ID_PHOTO_KINDS as readonly string[]).includes(kind)
        ? await service.photo(id, kind as (typeof ID_PHOTO_KINDS)[number])
        : null;
      if (!image) throw notFound(ID_PHOTO_NOT_FOUND);
      // A person's ID: no cache anywhere may keep it (the photo is deleted once the check is decided).
      c.header('Cache-Control', 'no-store');
      c.header('Content-Type', image.contentType);
      c.header('X-Content-Type-Options', 'nosniff');
      return c.body(new Uint8Array(image.bytes), 200);
    },
    notFoundOnBadId(ID_PHOTO_NOT_FOUND),
  );
  router.openapi(
    { ...adminDecisionRoute, middleware: [throttle] },
    async (c) =>
      c.json(await service.decide(currentAuth(c).user.id, c.req.valid('param').id, c.req.valid('json')), 200),
    notFoundOnBadId(ID_CHECK_NOT_FOUND),
  );
  return router;
}
