import { createRoute } from '@hono/zod-openapi';
import { contactMessageSchema, contactReceiptSchema } from '../../shared/contact';
import { clientIp } from '../http/client-ip';
import { errorResponses, jsonBody } from '../http/openapi';
import { createRouter } from '../http/validation';
import { enforceLimit, type AttemptCounter, type WindowLimit } from '../limits';
import type { ContactService } from './service';

const sendRoute = createRoute({
  method: 'post',
  path: '/',
  tags: ['contact'],
  summary: 'Send a message to the RuralRoute team (no sign-in needed)',
  request: { body: jsonBody(contactMessageSchema) },
  responses: {
    201: {
      description: 'Stored',
      content: { 'application/json': { schema: contactReceiptSchema } },
    },
    ...errorResponses(400, 403, 413, 429),
  },
});

export function contactMessageLimitMessage(retryAfterSeconds: number): string {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return minutes <= 1
    ? 'You have sent several messages already. Please wait a minute and try again.'
    : `You have sent several messages already. Please wait ${minutes} minutes and try again.`;
}

export function contactRoutes(
  contact: ContactService,
  counter: AttemptCounter,
  limit: WindowLimit,
  trustProxyHops: number,
) {
  const router = createRouter();
  router.openapi(sendRoute, async (c) => {
    // Counted before storing (refused input never gets here: the route validates first), so parallel posts
    // cannot all pass; the address is counted under a hash and never stored with the message.
    const hit = await enforceLimit(
      counter,
      'contact-ip',
      clientIp(c, trustProxyHops),
      limit,
      contactMessageLimitMessage,
    );
    try {
      return c.json(await contact.store(c.req.valid('json')), 201);
    } catch (err) {
      // A visitor whose message failed to save has not used up their allowance.
      await counter.release(hit).catch(() => undefined);
      throw err;
    }
  });
  return router;
}
