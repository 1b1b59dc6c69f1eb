import { createRoute } from '@hono/zod-openapi';
import { PLACE_NOT_FOUND, placeListSchema, placeParamSchema, placeQuerySchema, placeSchema } from '../../shared/places';
import { notFound } from '../core/domain-error';
import { errorResponses } from '../http/openapi';
import { createRouter } from '../http/validation';
import type { PlaceService } from './service';

const suggestRoute = createRoute({
  method: 'get',
  path: '/',
  tags: ['places'],
  request: { query: placeQuerySchema },
  responses: {
    200: {
      description:
        "Place suggestions for what was typed (at most 8): town names by prefix, then by similarity; 'Town, ST' " +
        'narrows to a state; digits search ZIP codes. Under 2 characters: an empty list. No session needed',
      content: { 'application/json': { schema: placeListSchema } },
    },
    ...errorResponses(400),
  },
});

const placeRoute = createRoute({
  method: 'get',
  path: '/{id}',
  tags: ['places'],
  request: { params: placeParamSchema },
  responses: {
    200: {
      description:
        "One place by its id ('Springfield, IL'): what a Browse link's near=<id> is called. No session needed",
      content: { 'application/json': { schema: placeSchema } },
    },
    ...errorResponses(400, 404),
  },
});

/**
 * `/api/places`: public, like the pages that show the forms. No per-address limit: one indexed query of at most
 * 8 rows costs less than the attempt counter's write would (bench/places.ts measures it).
 */
export function placeRoutes(service: PlaceService) {
  const router = createRouter();
  router.openapi(suggestRoute, async (c) => c.json({ items: await service.suggest(c.req.valid('query').q) }, 200));
  router.openapi(placeRoute, async (c) => {
    const place = await service.byId(c.req.valid('param').id);
    if (!place) throw notFound(PLACE_NOT_FOUND);
    return c.json(place, 200);
  });
  return router;
}
