import { createRoute } from '@hono/zod-openapi';
import { dashboardSchema } from '../../shared/marketplace';
import { errorResponses } from '../http/openapi';
import { currentAuth, requireAuth } from '../http/session';
import { createRouter } from '../http/validation';
import type { DashboardService } from './service';

const dashboardRoute = createRoute({
  method: 'get',
  path: '/',
  tags: ['dashboard'],
  responses: {
    200: {
      description: 'My counts and my latest activity (at most 10 events, newest first)',
      content: { 'application/json': { schema: dashboardSchema } },
    },
    ...errorResponses(401),
  },
});

export function dashboardRoutes(service: DashboardService) {
  const router = createRouter();
  router.use('*', requireAuth);
  router.openapi(dashboardRoute, async (c) => {
    const { user } = currentAuth(c);
    return c.json(await service.load(user.id), 200);
  });
  return router;
}
