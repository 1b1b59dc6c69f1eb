import { createRoute } from '@hono/zod-openapi';
import { placeListSchema, placeQuerySchema } from '../../shared/places';
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

/**
 * `/api/places`: public, like the pages that show the forms. No per-address limit: one indexed query of at most
 * 8 rows costs less than the attempt counter's write would (bench/places.ts measures it).
 */
export function placeRoutes(service: PlaceService) {
  const router = createRouter();
  router.openapi(suggestRoute, async (c) => c.json({ items: await service.suggest(c.req.valid('query').q) }, 200));
  return router;
}
