import { createRoute } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { idParamSchema, INPUT_FALLBACK_MESSAGE } from '../../shared/marketplace';
import {
  savedSearchInputSchema,
  savedSearchListSchema,
  savedSearchPatchSchema,
  savedSearchSchema,
} from '../../shared/places';
import { RIDE_NOT_FOUND } from '../along-route';
import { notFound } from '../core/domain-error';
import { objectBody } from '../http/body';
import { errorResponses, jsonBody } from '../http/openapi';
import { notFoundOnBadId } from '../http/params';
import { currentAuth, requireAuth } from '../http/session';
import type { AppEnv } from '../http/types';
import { createRouter } from '../http/validation';
import { SAVED_SEARCH_NOT_FOUND, type SavedSearchService } from './service';

const item = { 'application/json': { schema: savedSearchSchema } };

const createSearchRoute = createRoute({
  method: 'post',
  path: '/',
  tags: ['alerts'],
  request: { body: jsonBody(objectBody(savedSearchInputSchema, INPUT_FALLBACK_MESSAGE)) },
  responses: {
    201: { description: 'Search saved', content: item },
    ...errorResponses(400, 401, 403, 413, 429),
  },
});

const listRoute = createRoute({
  method: 'get',
  path: '/',
  tags: ['alerts'],
  responses: {
    200: {
      description: 'My saved searches and route alerts, oldest first',
      content: { 'application/json': { schema: savedSearchListSchema } },
    },
    ...errorResponses(401),
  },
});

const patchRoute = createRoute({
  method: 'patch',
  path: '/{id}',
  tags: ['alerts'],
  request: { params: idParamSchema, body: jsonBody(objectBody(savedSearchPatchSchema, INPUT_FALLBACK_MESSAGE)) },
  responses: {
    200: { description: "The search with its 'Email' switch set", content: item },
    ...errorResponses(400, 401, 403, 404, 413, 429),
  },
});

const deleteRoute = createRoute({
  method: 'delete',
  path: '/{id}',
  tags: ['alerts'],
  request: { params: idParamSchema },
  responses: { 204: { description: 'Deleted' }, ...errorResponses(401, 403, 404, 429) },
});

/** `/api/saved-searches`: every route needs a session; others' searches are 404. */
export function savedSearchRoutes(service: SavedSearchService, throttle: MiddlewareHandler<AppEnv>) {
  const router = createRouter();
  router.use('*', requireAuth);
  router.openapi({ ...createSearchRoute, middleware: [throttle] }, async (c) =>
    c.json(await service.create(currentAuth(c).user.id, c.req.valid('json')), 201),
  );
  router.openapi(listRoute, async (c) => c.json({ items: await service.list(currentAuth(c).user.id) }, 200));
  router.openapi(
    { ...patchRoute, middleware: [throttle] },
    async (c) =>
      c.json(await service.setEmail(currentAuth(c).user.id, c.req.valid('param').id, c.req.valid('json').email), 200),
    notFoundOnBadId(SAVED_SEARCH_NOT_FOUND),
  );
  router.openapi(
    { ...deleteRoute, middleware: [throttle] },
    async (c) => {
      if (!(await service.remove(currentAuth(c).user.id, c.req.valid('param').id)))
        throw notFound(SAVED_SEARCH_NOT_FOUND);
      return c.body(null, 204);
    },
    notFoundOnBadId(SAVED_SEARCH_NOT_FOUND),
  );
  return router;
}

const alertOnRoute = createRoute({
  method: 'post',
  path: '/{id}/alert',
  tags: ['alerts'],
  request: { params: idParamSchema },
  responses: {
    201: { description: "My ride's route alert, on", content: item },
    200: { description: 'It was on already', content: item },
    ...errorResponses(400, 401, 403, 404, 409, 429),
  },
});

const alertOffRoute = createRoute({
  method: 'delete',
  path: '/{id}/alert',
  tags: ['alerts'],
  request: { params: idParamSchema },
  responses: { 204: { description: "My ride's route alert, off" }, ...errorResponses(401, 403, 404, 429) },
});

/** `/api/rides/{id}/alert`: the ride's driver only (404 for anyone else). */
export function routeAlertRoutes(service: SavedSearchService, throttle: MiddlewareHandler<AppEnv>) {
  const router = createRouter();
  router.use('/:id/alert', requireAuth);
  router.openapi(
    { ...alertOnRoute, middleware: [throttle] },
    async (c) => {
      const { created, item } = await service.routeAlertOn(currentAuth(c).user.id, c.req.valid('param').id);
      return created ? c.json(item, 201) : c.json(item, 200);
    },
    notFoundOnBadId(RIDE_NOT_FOUND),
  );
  router.openapi(
    { ...alertOffRoute, middleware: [throttle] },
    async (c) => {
      if (!(await service.routeAlertOff(currentAuth(c).user.id, c.req.valid('param').id)))
        throw notFound(RIDE_NOT_FOUND);
      return c.body(null, 204);
    },
    notFoundOnBadId(RIDE_NOT_FOUND),
  );
  return router;
}
