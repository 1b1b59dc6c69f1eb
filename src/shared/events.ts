import { z } from 'zod';
import { bookingEventTypeSchema } from './lifecycle';
import { messageSchema } from './messages';
import { notificationSchema } from './notifications';
import { bookingStatusSchema } from './statuses';

/**
 * The live event stream (`GET /api/events`, text/event-stream; docs/events.md). Each event's SSE `id` is the
 * recipient's own sequence number (1, 2, 3 ... in commit order); `data` is the JSON below for its `event` name.
 * A client that reconnects with `Last-Event-ID` gets every event after that id that is still kept
 * (EVENT_RETENTION_HOURS); when that is not possible the server sends `reset` and the client reloads its data.
 */
export const EVENT_RETENTION_HOURS = 72;
/** The server sends a comment this often so proxies and the client can tell a live connection from a dead one. */
export const EVENT_HEARTBEAT_SECONDS = 25;

export const liveEventSchemas = {
  /** First event of every connection: its `id` is where a later resume starts. */
  ready: z.object({ resumed: z.boolean() }),
  /** The server cannot replay what was missed (too old, or an unknown id): reload everything. */
  reset: z.object({}),
  /** A message in one of my conversations (sent by me from another tab, or by the other person). */
  'message.created': z.object({ booking_id: z.string().uuid(), message: messageSchema }),
  /** The other person (or I, elsewhere) read a conversation up to `read_at`. */
  'conversation.read': z.object({
    booking_id: z.string().uuid(),
    reader_id: z.string().uuid(),
    read_at: z.string().nullable(),
  }),
  /** A booking I take part in moved (a new offer is `offered`). */
  'booking.changed': z.object({
    booking_id: z.string().uuid(),
    request_id: z.string().uuid(),
    status: bookingStatusSchema,
    event_type: bookingEventTypeSchema,
  }),
  /** A problem was reported, answered or decided on a booking I take part in (issue 36): its page reloads. */
  'dispute.changed': z.object({ booking_id: z.string().uuid() }),
  /**
   * A review on a booking I take part in changed: the other person reviewed me (content still hidden), both
   * reviews were published, or a reply was posted. The booking's review part and the profiles reload.
   */
  'review.changed': z.object({
    booking_id: z.string().uuid(),
    published: z.boolean(),
  }),
  /** A new notification for me, or my unread message notification updated (same id, new text and time). */
  'notification.created': z.object({ notification: notificationSchema }),
  /** Notifications of mine were marked read (here or in another tab): `ids`, or every one when `all`. */
  'notification.read': z.object({ ids: z.array(z.string().uuid()), all: z.boolean() }),
} as const;

export type LiveEventName = keyof typeof liveEventSchemas;
export type LiveEventData<N extends LiveEventName> = z.infer<(typeof liveEventSchemas)[N]>;
/** Events written to the outbox (ready and reset are the stream's own). */
export type OutboxEventName = Exclude<LiveEventName, 'ready' | 'reset'>;
export const LIVE_EVENT_NAMES = Object.keys(liveEventSchemas) as LiveEventName[];
