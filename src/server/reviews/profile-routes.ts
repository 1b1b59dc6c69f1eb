import { createRoute } from '@hono/zod-openapi';
import { idParamSchema, pageQuerySchema, pageSchema } from '../../shared/marketplace';
import { profileSchema, reviewSchema } from '../../shared/reviews';
import { errorResponses } from '../http/openapi';
import { notFoundOnBadId } from '../http/params';
import { requireAuth } from '../http/session';
import { createRouter } from '../http/validation';
import { USER_NOT_FOUND, type ProfileService } from './profiles';

const profileRoute = createRoute({
  method: 'get',
  path: '/{id}',
  tags: ['reviews'],
  request: { params: idParamSchema },
  responses: {
    200: {
      description:
        "A person's public profile: name, member since, completed deliveries in each role and rating; " +
        'an unknown or suspended account is 404',
      content: { 'application/json': { schema: profileSchema } },
    },
    ...errorResponses(401, 404),
  },
});

const reviewsRoute = createRoute({
  method: 'get',
  path: '/{id}/reviews',
  tags: ['reviews'],
  request: { params: idParamSchema, query: pageQuerySchema },
  responses: {
    200: {
      description: "The person's published reviews, newest first (keyset-paginated)",
      content: { 'application/json': { schema: pageSchema(reviewSchema) } },
    },
    ...errorResponses(400, 401, 404),
  },
});

/** `/api/users/...`: profiles, for any signed-in user (the profile is the same whoever asks). */
export function userRoutes(service: ProfileService) {
  const router = createRouter();
  router.use('*', requireAuth);
  const byId = notFoundOnBadId(USER_NOT_FOUND);

  router.openapi(profileRoute, async (c) => c.json(await service.profile(c.req.valid('param').id), 200), byId);

  router.openapi(
    reviewsRoute,
    async (c) => c.json(await service.reviews(c.req.valid('param').id, c.req.valid('query')), 200),
    byId,
  );

  return router;
}
