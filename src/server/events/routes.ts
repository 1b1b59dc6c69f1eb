import { createRoute, z } from '@hono/zod-openapi';
import { streamSSE } from 'hono/streaming';
import { errorResponses } from '../http/openapi';
import { currentAuth, readToken, requireAuth } from '../http/session';
import { createRouter } from '../http/validation';
import type { EventHub } from './hub';

/** The one live endpoint is also the one response compression must never touch (it would buffer events). */
export const EVENTS_PATH = '/api/events';

const eventsRoute = createRoute({
  method: 'get',
  path: '/',
  tags: ['events'],
  request: {
    query: z.object({
      last_event_id: z
        .string()
        .optional()
        .openapi({ description: 'Same as the Last-Event-ID header (which wins), for clients that cannot set it' }),
    }),
  },
  responses: {
    200: {
      description:
        'My live events as text/event-stream (docs/events.md): `ready` first, then message.created, ' +
        'conversation.read and booking.changed, each with my per-user sequence number as its id; `reset` when a ' +
        'resume is impossible; a heartbeat comment every EVENT_HEARTBEAT_SECONDS. Ends when the session does.',
      content: { 'text/event-stream': { schema: z.string() } },
    },
    ...errorResponses(400, 401),
  },
});

export function eventRoutes(hub: EventHub) {
  const router = createRouter();
  router.use('*', requireAuth);

  router.openapi(eventsRoute, (c) => {
    const { user } = currentAuth(c);
    const header = c.req.header('last-event-id')?.trim();
    const query = c.req.valid('query').last_event_id?.trim();
    const lastEventId = header || query || undefined;
    const token = readToken(c);
    const res = streamSSE(c, async (stream) => {
      const conn = hub.connect({
        userId: user.id,
        token,
        lastEventId,
        sink: {
          send: (e) => stream.writeSSE(e),
          comment: (text) => stream.write(`: ${text}\n\n`),
        },
      });
      stream.onAbort(() => conn.close());
      await conn.done;
    });
    // streamSSE says no-cache; nothing of a user's stream may be stored. Proxies (nginx) must not buffer it.
    res.headers.set('Cache-Control', 'no-store');
    res.headers.set('X-Accel-Buffering', 'no');
    return res;
  });

  return router;
}
