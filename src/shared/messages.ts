import { z } from 'zod';
import { NUL_MESSAGE, noNul } from './text';
import { shownPersonSchema } from './verification';

/**
 * Messages: one conversation per booking between its driver and its requester, open from the offer
 * until CONVERSATION_OPEN_DAYS after the booking ended (completed, declined or cancelled), then read-only.
 */
export const MESSAGE_MAX = 2000;
/** The character counter appears from here on. */
export const MESSAGE_COUNTER_FROM = 1800;
export const CONVERSATION_OPEN_DAYS = 30;
/** Messages per user per minute (429 too_many_requests beyond). */
export const MESSAGES_PER_MINUTE = 30;
/** A conversation page (newest messages first from the server; the client shows them oldest first). */
export const MESSAGES_PAGE_SIZE = 50;

export const MESSAGE_REQUIRED = 'Message cannot be empty';
export const MESSAGE_TOO_LONG = 'Message must be less than 2000 characters';

/**
 * `POST /api/bookings/:id/messages`. `client_id` is made by the sender's browser once per message: a retry with
 * the same id answers 200 with the stored message instead of storing it again (201 the first time).
 */
export const sendMessageSchema = z.object({
  body: z
    .string({ error: MESSAGE_REQUIRED })
    .refine((v) => v.trim().length > 0, MESSAGE_REQUIRED)
    .refine((v) => v.length <= MESSAGE_MAX, MESSAGE_TOO_LONG)
    .refine(noNul, NUL_MESSAGE)
    // Leading and trailing blank lines go; spaces inside (and line breaks between lines) are the sender's.
    .transform((v) => v.replace(/^\s*\n/, '').trimEnd()),
  client_id: z.string({ error: 'client_id must be a UUID' }).uuid('client_id must be a UUID'),
});
export type SendMessageInput = z.input<typeof sendMessageSchema>;

export const messageSchema = z.object({
  id: z.string().uuid(),
  booking_id: z.string().uuid(),
  sender_id: z.string().uuid(),
  client_id: z.string().uuid(),
  /** Plain text; the client never interprets it as HTML or turns links into anchors. */
  body: z.string(),
  created_at: z.string(),
});
export type Message = z.infer<typeof messageSchema>;

/** Why nobody can write in a conversation now. */
export const conversationStateSchema = z.enum(['open', 'closed', 'blocked']);
export type ConversationState = z.infer<typeof conversationStateSchema>;

/**
 * `GET /api/bookings/:id/messages?cursor=&limit=`: a page of the conversation, newest first as stored
 * (`next_cursor` leads to older messages); the client shows them oldest first. Only the booking's two people may
 * read it (anyone else 404).
 */
export const conversationPageSchema = z.object({
  items: z.array(messageSchema),
  next_cursor: z.string().nullable(),
  state: conversationStateSchema,
  /** The other person's read mark: my messages created at or before it show 'Seen'. */
  other_read_at: z.string().nullable(),
  /** When an open conversation becomes read-only (null while the booking is live). */
  closes_at: z.string().nullable(),
});
export type ConversationPage = z.infer<typeof conversationPageSchema>;

/** `POST /api/bookings/:id/messages/read`: marks everything I can see as read; answers my new read mark. */
export const readMarkSchema = z.object({ read_at: z.string().nullable() });

/** One row of `GET /api/messages/conversations` (keyset-paginated, most recent activity first). */
export const conversationSummarySchema = z.object({
  booking_id: z.string().uuid(),
  other: shownPersonSchema,
  request_title: z.string(),
  /** Null until someone writes. */
  last_message: z
    .object({
      /** The first line only, at most 200 characters. */
      preview: z.string(),
      from_me: z.boolean(),
      created_at: z.string(),
    })
    .nullable(),
  unread_count: z.number().int().nonnegative(),
  state: conversationStateSchema,
  /** The time the list sorts by: the latest message, or the offer when nobody has written yet. */
  activity_at: z.string(),
});
export type ConversationSummary = z.infer<typeof conversationSummarySchema>;

/** `GET /api/messages/unread`: the sidebar badge. */
export const unreadSchema = z.object({ conversations: z.number().int().nonnegative() });
export type Unread = z.infer<typeof unreadSchema>;

export const MESSAGES_EMPTY_TEXT = 'No messages yet. Conversations start when a driver offers to carry a request.';
export const CONVERSATION_CLOSED_TEXT = 'This conversation is closed.';
export const NOT_SENT_TEXT = 'Not sent. Retry';

/** Stable codes of the messaging flow and their texts (the HTTP status is ERROR_HTTP's business). */
export const MESSAGING_ERRORS = {
  conversation_closed: { title: 'Error', message: CONVERSATION_CLOSED_TEXT },
  blocked: { title: 'Error', message: "You can't contact this person." },
} as const;
