import { createRoute } from '@hono/zod-openapi';
import {
  idParamSchema,
  pageQuerySchema,
  pageSchema,
  requestInputSchema,
  deliveryRequestSchema,
  INPUT_FALLBACK_MESSAGE,
} from '../../shared/marketplace';
import { notFound } from '../http/app-error';
import { objectBody } from '../http/body';
import { errorResponses, jsonBody } from '../http/openapi';
import { notFoundOnBadId } from '../http/params';
import { currentAuth, requireAuth } from '../http/session';
import { createRouter } from '../http/validation';
import type { RequestService } from './service';

export const REQUEST_NOT_FOUND = 'Request not found.';

const requestPage = pageSchema(deliveryRequestSchema);

const mineRoute = createRoute({
  method: 'get',
  path: '/mine',
  tags: ['requests'],
  request: { query: pageQuerySchema },
  responses: {
    200: { description: 'My requests, newest first', content: { 'application/json': { schema: requestPage } } },
    ...errorResponses(400, 401),
  },
});

const browseRoute = createRoute({
  method: 'get',
  path: '/browse',
  tags: ['requests'],
  request: { query: pageQuerySchema },
  responses: {
    200: {
      description: 'Open requests, newest first',
      content: { 'application/json': { schema: requestPage } },
    },
    ...errorResponses(400, 401),
  },
});

const createRequestRoute = createRoute({
  method: 'post',
  path: '/',
  tags: ['requests'],
  request: { body: jsonBody(objectBody(requestInputSchema(), INPUT_FALLBACK_MESSAGE)) },
  responses: {
    201: { description: 'Request created', content: { 'application/json': { schema: deliveryRequestSchema } } },
    ...errorResponses(400, 401, 403, 413),
  },
});

const deleteRoute = createRoute({
  method: 'delete',
  path: '/{id}',
  tags: ['requests'],
  request: { params: idParamSchema },
  responses: { 204: { description: 'Request deleted (soft: see decision 005)' }, ...errorResponses(401, 403, 404) },
});

export function requestRoutes(service: RequestService) {
  const router = createRouter();
  router.use('*', requireAuth);

  router.openapi(mineRoute, async (c) => {
    const { user } = currentAuth(c);
    return c.json(await service.listMine(user.id, c.req.valid('query')), 200);
  });

  router.openapi(browseRoute, async (c) => {
    const { user } = currentAuth(c);
    return c.json(await service.browse(user.id, c.req.valid('query')), 200);
  });

  router.openapi(createRequestRoute, async (c) => {
    const { user } = currentAuth(c);
    return c.json(await service.create(user, c.req.valid('json')), 201);
  });

  router.openapi(
    deleteRoute,
    async (c) => {
      const { user } = currentAuth(c);
      if (!(await service.remove(user.id, c.req.valid('param').id))) throw notFound(REQUEST_NOT_FOUND);
      return c.body(null, 204);
    },
    notFoundOnBadId(REQUEST_NOT_FOUND),
  );

  return router;
}
