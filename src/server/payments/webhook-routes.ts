import { createRoute, z } from '@hono/zod-openapi';
import { errorResponses } from '../http/openapi';
import { createRouter } from '../http/validation';
import type { StripeEventReceiver } from './stripe-webhooks';

const stripeWebhookRoute = createRoute({
  method: 'post',
  path: '/webhooks/stripe',
  tags: ['payments'],
  description:
    "Stripe's event deliveries, signed with STRIPE_WEBHOOK_SECRET in the Stripe-Signature header over the raw body. " +
    'Each event is stored once by its id and applied by a job. Mounted only when PAYMENTS_PROVIDER=stripe.',
  responses: {
    200: {
      description: 'Received (a repeated delivery of an event too: it has no second effect)',
      content: { 'application/json': { schema: z.object({ received: z.literal(true) }) } },
    },
    ...errorResponses(400, 413),
  },
});

/**
 * POST /payments/webhooks/stripe: the body is read as text, untouched (the signature is over its bytes), and the
 * answer is 200 as soon as the event is stored; applying it is the job's (stripe-webhooks.ts). A bad signature or
 * body is 400 with the error envelope, never a 500, so Stripe's endpoint page shows why.
 */
export function stripeWebhookRoutes(receive: StripeEventReceiver) {
  return createRouter().openapi(stripeWebhookRoute, async (c) => {
    await receive(await c.req.text(), c.req.header('stripe-signature'));
    return c.json({ received: true as const }, 200);
  });
}
