import { createRoute } from '@hono/zod-openapi';
import { contactMessageSchema, contactReceiptSchema } from '../../shared/contact';
import { AppError } from '../http/app-error';
import { clientIp } from '../http/client-ip';
import { errorResponses, jsonBody } from '../http/openapi';
import { SlidingWindowLimiter } from '../http/rate-limiter';
import { createRouter } from '../http/validation';
import type { ContactService } from './service';

export interface ContactRateLimit {
  max: number;
  windowMs: number;
}

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

export function contactRoutes(contact: ContactService, limit: ContactRateLimit, trustProxyHops: number) {
  const sentByIp = new SlidingWindowLimiter(limit.max, limit.windowMs);
  setInterval(() => sentByIp.prune(), 60_000).unref();

  const router = createRouter();
  router.openapi(sendRoute, async (c) => {
    const ip = clientIp(c, trustProxyHops);
    const wait = sentByIp.retryAfter(ip);
    if (wait) {
      throw new AppError(429, 'too_many_requests', contactMessageLimitMessage(wait), { 'Retry-After': String(wait) });
    }
    const receipt = await contact.store(c.req.valid('json'));
    // Counted once stored: a visitor whose message failed to save has not used up their allowance.
    sentByIp.record(ip);
    return c.json(receipt, 201);
  });
  return router;
}
