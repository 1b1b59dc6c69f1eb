import { createRoute, z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { INPUT_FALLBACK_MESSAGE, pageQuerySchema, pageSchema } from '../../shared/marketplace';
import { cardSchema } from '../../shared/payments';
import { planChargeSchema, planChoiceSchema, planViewSchema } from '../../shared/plans-api';
import { objectBody } from '../http/body';
import { errorResponses } from '../http/openapi';
import { currentAuth, requireAuth } from '../http/session';
import type { AppEnv } from '../http/types';
import { createRouter } from '../http/validation';
import type { Plans } from './service';

const answer = (description: string) => ({
  200: { description, content: { 'application/json': { schema: planViewSchema } } },
});
const jsonBody = <S extends z.ZodRawShape>(schema: z.ZodObject<S>) => ({
  body: { required: true, content: { 'application/json': { schema: objectBody(schema, INPUT_FALLBACK_MESSAGE) } } },
});
const emptyBody = {
  body: {
    required: false,
    content: { 'application/json': { schema: objectBody(z.object({}), INPUT_FALLBACK_MESSAGE) } },
  },
};
const moveErrors = errorResponses(400, 401, 402, 409, 415, 429);

const viewRoute = createRoute({
  method: 'get',
  path: '/',
  tags: ['plans'],
  responses: { ...answer('My plan: Free, Plus or Community, its period, its card'), ...errorResponses(401) },
});
const subscribeRoute = createRoute({
  method: 'post',
  path: '/',
  tags: ['plans'],
  request: jsonBody(planChoiceSchema.extend({ card: cardSchema() })),
  responses: { ...answer('Subscribed: the first period is paid and starts now'), ...moveErrors },
});
const switchRoute = createRoute({
  method: 'post',
  path: '/switch',
  tags: ['plans'],
  request: jsonBody(planChoiceSchema),
  responses: { ...answer('Switched at once; the unused time was credited'), ...moveErrors },
});
const cancelRoute = createRoute({
  method: 'post',
  path: '/cancel',
  tags: ['plans'],
  request: emptyBody,
  responses: { ...answer('The plan will not renew; it runs to the end of its period'), ...moveErrors },
});
const resumeRoute = createRoute({
  method: 'post',
  path: '/resume',
  tags: ['plans'],
  request: emptyBody,
  responses: { ...answer('The plan renews again'), ...moveErrors },
});
const cardRoute = createRoute({
  method: 'post',
  path: '/card',
  tags: ['plans'],
  request: jsonBody(z.object({ card: cardSchema() })),
  responses: { ...answer('The card for renewals (a failed renewal is tried again with it)'), ...moveErrors },
});

const pageAnswer = (description: string) => ({
  200: { description, content: { 'application/json': { schema: z.object({ url: z.string().url() }) } } },
});
const checkoutRoute = createRoute({
  method: 'post',
  path: '/checkout',
  tags: ['plans'],
  description: "PAYMENTS_PROVIDER=stripe: Stripe Checkout's page for a new plan (the browser goes there).",
  request: jsonBody(planChoiceSchema),
  responses: { ...pageAnswer("Stripe Checkout's page"), ...moveErrors },
});
const portalRoute = createRoute({
  method: 'post',
  path: '/portal',
  tags: ['plans'],
  description: "PAYMENTS_PROVIDER=stripe: Stripe's customer portal, for the card and the invoices.",
  request: emptyBody,
  responses: { ...pageAnswer("Stripe's customer portal"), ...moveErrors },
});

const chargesRoute = createRoute({
  method: 'get',
  path: '/charges',
  tags: ['plans'],
  request: { query: pageQuerySchema },
  responses: {
    200: {
      description: "My plan's payments, newest first: the 'Paid' tab's plan payments and their receipts",
      content: { 'application/json': { schema: pageSchema(planChargeSchema) } },
    },
    ...errorResponses(400, 401),
  },
});

/** `/plan`: my own plan only; signed in; every move write-throttled. */
export function planRoutes(plans: Plans, throttle: MiddlewareHandler<AppEnv>) {
  const router = createRouter();
  router.use('*', requireAuth);
  const me = (c: Parameters<typeof currentAuth>[0]) => currentAuth(c).user.id;
  router.openapi(viewRoute, async (c) => c.json(await plans.view(me(c)), 200));
  router.openapi(chargesRoute, async (c) => c.json(await plans.charges(me(c), c.req.valid('query')), 200));
  router.openapi({ ...subscribeRoute, middleware: [throttle] }, async (c) => {
    const body = c.req.valid('json');
    return c.json(await plans.subscribe(me(c), body.plan, body.card), 200);
  });
  router.openapi({ ...switchRoute, middleware: [throttle] }, async (c) =>
    c.json(await plans.switchPlan(me(c), c.req.valid('json').plan), 200),
  );
  router.openapi({ ...cancelRoute, middleware: [throttle] }, async (c) => c.json(await plans.cancel(me(c)), 200));
  router.openapi({ ...resumeRoute, middleware: [throttle] }, async (c) => c.json(await plans.resume(me(c)), 200));
  router.openapi({ ...cardRoute, middleware: [throttle] }, async (c) =>
    c.json(await plans.updateCard(me(c), c.req.valid('json').card), 200),
  );
  router.openapi({ ...checkoutRoute, middleware: [throttle] }, async (c) =>
    c.json(await plans.checkout(me(c), c.req.valid('json').plan), 200),
  );
  router.openapi({ ...portalRoute, middleware: [throttle] }, async (c) => c.json(await plans.portal(me(c)), 200));
  return router;
}
