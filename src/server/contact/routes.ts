import { createRoute } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { contactMessageSchema, contactReceiptSchema } from '../../shared/contact';
import { idParamSchema, INPUT_FALLBACK_MESSAGE, pageQuerySchema, pageSchema } from '../../shared/marketplace';
import {
  SUPPORT_MESSAGE_NOT_FOUND,
  supportMessageSchema,
  supportQuerySchema,
  supportReplySchema,
} from '../../shared/support';
import { objectBody } from '../http/body';
import { clientIp } from '../http/client-ip';
import { errorResponses, jsonBody } from '../http/openapi';
import { notFoundOnBadId } from '../http/params';
import { currentAuth, requireAdmin } from '../http/session';
import type { AppEnv } from '../http/types';
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
      // The route is public; a signed-in member's message carries their account (and so their plan).
      return c.json(await contact.store(c.req.valid('json'), c.get('auth')?.user.id ?? null), 201);
    } catch (err) {
      // A visitor whose message failed to save has not used up their allowance.
      await counter.release(hit).catch(() => undefined);
      throw err;
    }
  });
  return router;
}

const adminListRoute = createRoute({
  method: 'get',
  path: '/support',
  hide: true,
  request: { query: pageQuerySchema.extend(supportQuerySchema.shape) },
  responses: {
    200: {
      description:
        'The support inbox: open messages (Plus and Community members first, then oldest first), or answered ones (newest first)',
      content: { 'application/json': { schema: pageSchema(supportMessageSchema) } },
    },
    ...errorResponses(400, 404),
  },
});

const adminReplyRoute = createRoute({
  method: 'post',
  path: '/support/{id}/reply',
  hide: true,
  request: { params: idParamSchema, body: jsonBody(objectBody(supportReplySchema, INPUT_FALLBACK_MESSAGE)) },
  responses: {
    200: {
      description: "The one answer to a message, mailed to its sender: the message is 'Answered'",
      content: { 'application/json': { schema: supportMessageSchema } },
    },
    ...errorResponses(400, 404, 409, 413),
  },
});

/** `/api/admin/support...` (admins only; 404 for everyone else, signed out included). */
export function adminSupportRoutes(contact: ContactService, throttle: MiddlewareHandler<AppEnv>) {
  const router = createRouter();
  router.use('/support', requireAdmin);
  router.use('/support/*', requireAdmin);
  router.openapi(adminListRoute, async (c) => {
    const { status, ...page } = c.req.valid('query');
    return c.json(await contact.list(status, page), 200);
  });
  router.openapi(
    { ...adminReplyRoute, middleware: [throttle] },
    async (c) => c.json(await contact.reply(currentAuth(c).user.id, c.req.valid('param').id, c.req.valid('json')), 200),
    notFoundOnBadId(SUPPORT_MESSAGE_NOT_FOUND),
  );
  return router;
}
