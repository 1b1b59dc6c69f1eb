import { createRoute, z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { idParamSchema, INPUT_FALLBACK_MESSAGE, pageQuerySchema, pageSchema } from '../../shared/marketplace';
import {
  adminReportQuerySchema,
  adminReportSchema,
  blockedPersonSchema,
  blockInputSchema,
  reportInputSchema,
  suspendedAccountSchema,
} from '../../shared/moderation';
import { notFound } from '../core/domain-error';
import { objectBody } from '../http/body';
import { errorResponses, jsonBody } from '../http/openapi';
import { notFoundOnBadId } from '../http/params';
import { currentAuth, requireAdmin, requireAuth } from '../http/session';
import type { AppEnv } from '../http/types';
import { createRouter } from '../http/validation';
import { NOT_SUSPENDED, REPORT_NOT_FOUND, type AdminService } from './admin';
import { NOT_BLOCKED, type BlockService, type ReportService } from './service';

// ─── Blocks ──────────────────────────────────────────────────────────────────────────────────────────────────────

const blockRoute = createRoute({
  method: 'post',
  path: '/',
  tags: ['moderation'],
  request: { body: jsonBody(objectBody(blockInputSchema, INPUT_FALLBACK_MESSAGE)) },
  responses: {
    201: { description: 'Blocked', content: { 'application/json': { schema: blockedPersonSchema } } },
    200: { description: 'Already blocked', content: { 'application/json': { schema: blockedPersonSchema } } },
    ...errorResponses(400, 401, 403, 404, 413, 429),
  },
});

const unblockRoute = createRoute({
  method: 'delete',
  path: '/{userId}',
  tags: ['moderation'],
  request: { params: z.object({ userId: idParamSchema.shape.id }) },
  responses: { 204: { description: 'Unblocked' }, ...errorResponses(401, 403, 404, 429) },
});

const blocksRoute = createRoute({
  method: 'get',
  path: '/',
  tags: ['moderation'],
  request: { query: pageQuerySchema },
  responses: {
    200: {
      description: 'The people I blocked, newest first',
      content: { 'application/json': { schema: pageSchema(blockedPersonSchema) } },
    },
    ...errorResponses(400, 401),
  },
});

/** `/api/blocks`: every route needs a session; `throttle` guards the writes (limits/middleware.ts). */
export function blockRoutes(service: BlockService, throttle: MiddlewareHandler<AppEnv>) {
  const router = createRouter();
  router.use('*', requireAuth);

  router.openapi({ ...blockRoute, middleware: [throttle] }, async (c) => {
    const { created, item } = await service.block(currentAuth(c).user.id, c.req.valid('json').user_id);
    return created ? c.json(item, 201) : c.json(item, 200);
  });

  router.openapi(
    { ...unblockRoute, middleware: [throttle] },
    async (c) => {
      if (!(await service.unblock(currentAuth(c).user.id, c.req.valid('param').userId))) throw notFound(NOT_BLOCKED);
      return c.body(null, 204);
    },
    notFoundOnBadId(NOT_BLOCKED),
  );

  router.openapi(blocksRoute, async (c) =>
    c.json(await service.list(currentAuth(c).user.id, c.req.valid('query')), 200),
  );

  return router;
}

// ─── Reports ─────────────────────────────────────────────────────────────────────────────────────────────────────

const reportRoute = createRoute({
  method: 'post',
  path: '/',
  tags: ['moderation'],
  request: { body: jsonBody(objectBody(reportInputSchema, INPUT_FALLBACK_MESSAGE)) },
  responses: {
    201: {
      description: 'Report filed for the moderators',
      content: { 'application/json': { schema: z.object({ id: z.string().uuid() }) } },
    },
    ...errorResponses(400, 401, 403, 404, 413, 429),
  },
});

/** `POST /api/reports`: signed in, write-throttled. */
export function reportRoutes(service: ReportService, throttle: MiddlewareHandler<AppEnv>) {
  const router = createRouter();
  router.use('*', requireAuth);
  router.openapi({ ...reportRoute, middleware: [throttle] }, async (c) =>
    c.json(await service.report(currentAuth(c).user.id, c.req.valid('json')), 201),
  );
  return router;
}

// ─── Admin ───────────────────────────────────────────────────────────────────────────────────────────────────────

const adminListRoute = createRoute({
  method: 'get',
  path: '/reports',
  hide: true,
  request: { query: pageQuerySchema.extend(adminReportQuerySchema.shape) },
  responses: {
    200: {
      description: 'Reports by status: open ones oldest first, resolved ones newest first',
      content: { 'application/json': { schema: pageSchema(adminReportSchema) } },
    },
    ...errorResponses(400, 404),
  },
});

const adminActionRoute = (action: 'dismiss' | 'suspend', description: string) =>
  createRoute({
    method: 'post',
    path: `/reports/{id}/${action}`,
    hide: true,
    request: { params: idParamSchema },
    responses: {
      200: { description, content: { 'application/json': { schema: adminReportSchema } } },
      ...errorResponses(403, 404, 409),
    },
  });

const suspensionsRoute = createRoute({
  method: 'get',
  path: '/suspensions',
  hide: true,
  request: { query: pageQuerySchema },
  responses: {
    200: {
      description: 'Suspended accounts, most recently suspended first',
      content: { 'application/json': { schema: pageSchema(suspendedAccountSchema) } },
    },
    ...errorResponses(400, 404),
  },
});

const liftSuspensionRoute = createRoute({
  method: 'delete',
  path: '/suspensions/{userId}',
  hide: true,
  request: { params: z.object({ userId: idParamSchema.shape.id }) },
  responses: {
    204: { description: 'The suspension is lifted: the person can sign in again, their listings are back in Browse' },
    ...errorResponses(403, 404),
  },
});

export function adminRoutes(service: AdminService) {
  const router = createRouter();
  router.use('*', requireAdmin);
  const byId = notFoundOnBadId(REPORT_NOT_FOUND);

  router.openapi(adminListRoute, async (c) => {
    const { status, ...page } = c.req.valid('query');
    return c.json(await service.list(status, page), 200);
  });

  router.openapi(
    adminActionRoute('dismiss', 'The open report is dismissed'),
    async (c) => c.json(await service.dismiss(currentAuth(c).user.id, c.req.valid('param').id), 200),
    byId,
  );

  router.openapi(
    adminActionRoute(
      'suspend',
      'The reported person is suspended (signed out everywhere); this and their other open reports are actioned',
    ),
    async (c) => c.json(await service.suspend(currentAuth(c).user.id, c.req.valid('param').id), 200),
    byId,
  );

  router.openapi(suspensionsRoute, async (c) => c.json(await service.listSuspended(c.req.valid('query')), 200));

  router.openapi(
    liftSuspensionRoute,
    async (c) => {
      await service.liftSuspension(currentAuth(c).user.id, c.req.valid('param').userId);
      return c.body(null, 204);
    },
    notFoundOnBadId(NOT_SUSPENDED),
  );

  return router;
}
