import { createRoute, z } from '@hono/zod-openapi';
import { idParamSchema, INPUT_FALLBACK_MESSAGE, pageQuerySchema, pageSchema } from '../../shared/marketplace';
import {
  conversationPageSchema,
  conversationSummarySchema,
  MESSAGES_PAGE_SIZE,
  messageSchema,
  readMarkSchema,
  sendMessageSchema,
  unreadSchema,
} from '../../shared/messages';
import { objectBody } from '../http/body';
import { errorResponses, jsonBody } from '../http/openapi';
import { notFoundOnBadId } from '../http/params';
import { currentAuth, requireAuth } from '../http/session';
import { createRouter } from '../http/validation';
import { tooManyRequests, type WindowLimit, type WriteThrottle } from '../limits';
import { BOOKING_NOT_FOUND, type MessageService } from './service';

export const MESSAGE_LIMIT_MESSAGE = "You're sending messages too quickly. Please wait a moment.";

/** A conversation page holds up to MESSAGES_PAGE_SIZE messages unless `limit` asks for fewer. */
const conversationQuerySchema = pageQuerySchema.extend({
  limit: pageQuerySchema.shape.limit.unwrap().default(MESSAGES_PAGE_SIZE),
});

const pageRoute = createRoute({
  method: 'get',
  path: '/{id}/messages',
  tags: ['messages'],
  request: { params: idParamSchema, query: conversationQuerySchema },
  responses: {
    200: {
      description:
        "The booking's conversation, newest first (next_cursor leads to older messages), whether I may write " +
        "(state), the other person's read mark and when it closes; for its driver and requester only",
      content: { 'application/json': { schema: conversationPageSchema } },
    },
    ...errorResponses(400, 401, 404),
  },
});

const sendRoute = createRoute({
  method: 'post',
  path: '/{id}/messages',
  tags: ['messages'],
  request: { params: idParamSchema, body: jsonBody(objectBody(sendMessageSchema, INPUT_FALLBACK_MESSAGE)) },
  responses: {
    201: { description: 'Sent', content: { 'application/json': { schema: messageSchema } } },
    200: {
      description: 'Sent before with this client_id and body: the stored message (nothing stored again)',
      content: { 'application/json': { schema: messageSchema } },
    },
    ...errorResponses(400, 401, 403, 404, 409, 413, 422, 429),
  },
});

/** No input: JSON `{}` or no body at all. */
const emptyBody = {
  required: false,
  content: { 'application/json': { schema: objectBody(z.object({}), INPUT_FALLBACK_MESSAGE) } },
} as const;

const readRoute = createRoute({
  method: 'post',
  path: '/{id}/messages/read',
  tags: ['messages'],
  request: { params: idParamSchema, body: emptyBody },
  responses: {
    200: {
      description: 'My read mark, moved to the latest message (never backwards)',
      content: { 'application/json': { schema: readMarkSchema } },
    },
    ...errorResponses(400, 401, 403, 404, 429),
  },
});

const conversationsRoute = createRoute({
  method: 'get',
  path: '/conversations',
  tags: ['messages'],
  request: { query: pageQuerySchema },
  responses: {
    200: {
      description: 'My conversations (every booking I take part in), most recent activity first',
      content: { 'application/json': { schema: pageSchema(conversationSummarySchema) } },
    },
    ...errorResponses(400, 401),
  },
});

const unreadRoute = createRoute({
  method: 'get',
  path: '/unread',
  tags: ['messages'],
  responses: {
    200: {
      description: 'How many conversations have a message from the other person I have not read',
      content: { 'application/json': { schema: unreadSchema } },
    },
    ...errorResponses(401),
  },
});

export interface MessageRouteDeps {
  service: MessageService;
  /** The general write throttle (limits/middleware.ts); a message counts it in its own statement. */
  throttle: WriteThrottle;
  /** Messages have their own allowance per user, counted in PostgreSQL like every limit (after the write throttle). */
  messageLimit: WindowLimit;
}

/** `/bookings/{id}/messages...`: mounted beside the booking routes. */
export function conversationRoutes({ service, throttle, messageLimit }: MessageRouteDeps) {
  const router = createRouter();
  router.use('*', requireAuth);
  const byId = notFoundOnBadId(BOOKING_NOT_FOUND);
  /** A message's hits: the write throttle's, then the messages' own allowance. */
  const limitsOf = (userId: string) =>
    throttle.folded(userId, {
      scope: 'message',
      subject: userId,
      limit: messageLimit,
      refuse: (retryAfterSeconds) => tooManyRequests(MESSAGE_LIMIT_MESSAGE, retryAfterSeconds),
    });

  router.openapi(
    pageRoute,
    async (c) => c.json(await service.page(currentAuth(c).user.id, c.req.valid('param').id, c.req.valid('query')), 200),
    byId,
  );

  router.openapi(
    sendRoute,
    async (c) => {
      const userId = currentAuth(c).user.id;
      const sent = await service.send(userId, c.req.valid('param').id, c.req.valid('json'), limitsOf(userId));
      return sent.created ? c.json(sent.message, 201) : c.json(sent.message, 200);
    },
    byId,
  );

  router.openapi(
    { ...readRoute, middleware: [throttle] },
    async (c) => c.json(await service.markRead(currentAuth(c).user.id, c.req.valid('param').id), 200),
    byId,
  );

  return router;
}

/** `/messages/...`: my conversation list and the unread badge. */
export function messageRoutes(service: MessageService) {
  const router = createRouter();
  router.use('*', requireAuth);

  router.openapi(conversationsRoute, async (c) =>
    c.json(await service.conversations(currentAuth(c).user.id, c.req.valid('query')), 200),
  );
  router.openapi(unreadRoute, async (c) => c.json(await service.unread(currentAuth(c).user.id), 200));

  return router;
}
