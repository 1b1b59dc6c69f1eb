import type { ServerResponse } from 'node:http';
import { createRoute, z } from '@hono/zod-openapi';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import { errorResponses } from '../http/openapi';
import { currentAuth, readToken, requireAuth } from '../http/session';
import { createRouter } from '../http/validation';
import type { EventHub, LiveSink } from './hub';

/** The headers of every stream: never stored, never buffered by a proxy (nginx reads X-Accel-Buffering). */
const STREAM_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-store',
  'X-Accel-Buffering': 'no',
  'X-Content-Type-Options': 'nosniff',
} as const;

/** One SSE event as text: `data` is split into one `data:` line per line. */
function formatEvent(e: { event: string; data: string; id: string; retry?: number }): string {
  let text = `id: ${e.id}\nevent: ${e.event}\n`;
  if (e.retry !== undefined) text += `retry: ${e.retry}\n`;
  for (const line of e.data.split('\n')) text += `data: ${line}\n`;
  return `${text}\n`;
}

/**
 * Under @hono/node-server, events are written straight to the Node response: no web stream, no encoder and no
 * promise chain per open connection, which is what lets one instance hold thousands of them (bench:events). A write
 * the socket cannot take now waits for 'drain' (or the end of the connection).
 */
function nodeSink(res: ServerResponse): LiveSink {
  const write = (chunk: string): Promise<void> => {
    if (res.destroyed || res.writableEnded) return Promise.resolve();
    if (res.write(chunk)) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        res.off('drain', done);
        res.off('close', done);
        resolve();
      };
      res.on('drain', done);
      res.on('close', done);
    });
  };
  return { send: (e) => write(formatEvent(e)), comment: (text) => write(`: ${text}\n\n`) };
}

const nodeResponse = (c: Context) => (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;

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
    const outgoing = nodeResponse(c);
    if (outgoing) {
      outgoing.writeHead(200, STREAM_HEADERS);
      outgoing.flushHeaders();
      const conn = hub.connect({ userId: user.id, token, lastEventId, sink: nodeSink(outgoing) });
      outgoing.on('close', () => conn.close());
      void conn.done.then(() => outgoing.end());
      return RESPONSE_ALREADY_SENT;
    }
    // Anywhere else (app.request() in tests, other runtimes): hono's web-stream SSE.
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
    for (const [name, value] of Object.entries(STREAM_HEADERS)) res.headers.set(name, value);
    return res;
  });

  return router;
}
