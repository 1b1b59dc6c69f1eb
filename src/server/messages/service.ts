import { and, desc, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Page } from '../../shared/marketplace';
import { MESSAGE_MAIL_DELAY_SECONDS, MESSAGE_MAIL_INTERVAL_MINUTES } from '../../shared/notifications';
import {
  CONVERSATION_CLOSED_TEXT,
  CONVERSATION_OPEN_DAYS,
  MESSAGING_ERRORS,
  type ConversationPage,
  type ConversationState,
  type ConversationSummary,
  type Message,
  type Unread,
} from '../../shared/messages';
import { DomainError, notFound } from '../core/domain-error';
import type { Db } from '../db/client';
import { decodeCursor, encodeCursor } from '../db/cursor';
import { preparedStatement } from '../db/prepared';
import { rowsOf } from '../db/result-rows';
import type { CountAnswer, FoldedLimits } from '../limits';
import { cursorInstant, cursorUuid, keysetList, type PageRequest } from '../db/keyset';
import { bookings, messages, notifications } from '../db/schema';
import { Outbox } from '../events';
import { blockedWith, isBlockedBetween } from '../blocks';
import { ambassadorOf } from '../plans';
import { z } from 'zod';

/** The same answer as the booking page for anyone who is not one of its two people (or an unknown id). */
export const BOOKING_NOT_FOUND = 'Booking not found.';
export const CLIENT_ID_REUSED = 'This client_id was already used for a different message.';
/** The first line of the latest message, at most this many characters, in the conversation list. */
export const PREVIEW_MAX = 200;

const OPEN_MS = CONVERSATION_OPEN_DAYS * 24 * 3_600_000;
/** In hours, so that the database's 'closed' and the closes_at we print agree across daylight-saving changes. */
const OPEN_HOURS = CONVERSATION_OPEN_DAYS * 24;

const closed = () => new DomainError('conversation_closed', CONVERSATION_CLOSED_TEXT);
const blocked = () => new DomainError('blocked', MESSAGING_ERRORS.blocked.message);

/** A timestamp as Date#toISOString prints it, computed by the database (the same on both drivers). */
const iso = (value: SQL | unknown) =>
  sql<string>`to_char((${value}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const isClosedSql = sql<boolean>`(${bookings.endedAt} is not null and ${bookings.endedAt} + make_interval(hours => ${OPEN_HOURS}) <= now())`;

type MessageRow = typeof messages.$inferSelect;

const toMessage = (m: MessageRow): Message => ({
  id: m.id,
  booking_id: m.bookingId,
  sender_id: m.senderId,
  client_id: m.clientId,
  body: m.body,
  created_at: m.createdAt.toISOString(),
});

const stateOf = (isClosed: boolean, isBlocked: boolean): ConversationState =>
  isClosed ? 'closed' : isBlocked ? 'blocked' : 'open';

/** What `rr_send_message` answers (migrations 0041 and 0044). */
type SendAnswer =
  | { message: Message }
  | { prior: Message }
  | { refused: 'not_found' | 'closed' | 'blocked' }
  | { limited: CountAnswer };

/**
 * The whole send in one statement, in autocommit (migrations 0041 and 0044, decision 037), prepared once per
 * connection: its hits counted first, the settings kept in TypeScript are its arguments.
 */
const sendStatement = preparedStatement(
  'send_message',
  () => sql`select rr_send_message(${sql.placeholder('bookingId')}::uuid, ${sql.placeholder('senderId')}::uuid,
      ${sql.placeholder('clientId')}::uuid, ${sql.placeholder('body')}::text, ${sql.placeholder('openHours')}::int,
      ${sql.placeholder('mailDelaySeconds')}::int, ${sql.placeholder('mailBucketSeconds')}::int,
      ${sql.placeholder('hits')}::jsonb) as answer`,
);

/** The first line, at most PREVIEW_MAX characters (counted in code points, so no emoji is cut in half). */
export function previewOf(body: string): string {
  const line = body.split(/\r?\n/, 1)[0] ?? '';
  return Array.from(line).slice(0, PREVIEW_MAX).join('');
}

const conversationCursor = z.tuple([cursorInstant, cursorUuid]);

/**
 * Marks `userId`'s unread 'message' notification of the conversation read (there is at most one: notify() groups
 * them), in the caller's transaction; if there was one, their other tabs hear `notification.read`.
 */
async function readMessageNotice(tx: Db, out: Outbox, userId: string, bookingId: string): Promise<void> {
  const read = await tx
    .update(notifications)
    .set({ readAt: sql`now()` })
    .where(
      and(
        eq(notifications.userId, userId),
        eq(notifications.groupKey, `message:${bookingId}`),
        isNull(notifications.readAt),
      ),
    )
    .returning({ id: notifications.id });
  if (read.length) out.add([userId], 'notification.read', { ids: read.map((n) => n.id), all: false });
}

/**
 * Conversations (src/shared/messages.ts): one per booking, between its driver and its requester. Only those two
 * may read or write it; to anyone else it does not exist (404, the same as the booking page).
 */
export function createMessageService(db: Db) {
  /** The booking as one of its people sees it, or 404. `lock` takes the row for the rest of the transaction. */
  async function conversationOf(tx: Db, userId: string, bookingId: string, lock = false) {
    const q = tx
      .select({
        id: bookings.id,
        driverId: bookings.driverId,
        requesterId: bookings.requesterId,
        endedAt: bookings.endedAt,
        lastMessageAt: bookings.lastMessageAt,
        driverReadAt: bookings.driverReadAt,
        requesterReadAt: bookings.requesterReadAt,
        isClosed: isClosedSql,
      })
      .from(bookings)
      .where(and(eq(bookings.id, bookingId), or(eq(bookings.driverId, userId), eq(bookings.requesterId, userId))));
    const [row] = lock ? await q.for('update') : await q;
    if (!row) throw notFound(BOOKING_NOT_FOUND);
    const asDriver = row.driverId === userId;
    return {
      ...row,
      otherId: asDriver ? row.requesterId : row.driverId,
      myReadAt: asDriver ? row.driverReadAt : row.requesterReadAt,
      otherReadAt: asDriver ? row.requesterReadAt : row.driverReadAt,
      myReadColumn: asDriver ? ('driverReadAt' as const) : ('requesterReadAt' as const),
      closesAt: row.endedAt ? new Date(row.endedAt.getTime() + OPEN_MS) : null,
    };
  }

  // Newest first over messages_booking_created_idx (booking_id, created_at, id), read backwards.
  const pageOf = keysetList({
    name: 'conversation_messages',
    from: () => db.select().from(messages).$dynamic(),
    filter: sql`${messages.bookingId} = ${sql.placeholder('bookingId')}`,
    after: sql`(${messages.createdAt}, ${messages.id}) < (${sql.placeholder('at')}::timestamptz, ${sql.placeholder('id')}::uuid)`,
    orderBy: [desc(messages.createdAt), desc(messages.id)],
    cursor: conversationCursor,
    bind: ([at, id]) => ({ at, id }),
    sortKey: (m) => [m.createdAt.toISOString(), m.id],
  });

  /** A page of the conversation, newest first, with whether I may write and the other person's read mark. */
  async function page(userId: string, bookingId: string, req: PageRequest): Promise<ConversationPage> {
    const conv = await conversationOf(db, userId, bookingId);
    const [list, isBlocked] = await Promise.all([
      pageOf({ bookingId }, req, toMessage),
      isBlockedBetween(db, userId, conv.otherId),
    ]);
    return {
      ...list,
      state: stateOf(conv.isClosed, isBlocked),
      other_read_at: conv.otherReadAt?.toISOString() ?? null,
      closes_at: conv.closesAt?.toISOString() ?? null,
    };
  }

  /** The stored message for a repeated client_id, or 422 when that id was used for something else. */
  function replay(prior: Message, bookingId: string, body: string): { message: Message; created: false } {
    if (prior.booking_id !== bookingId || prior.body !== body)
      throw new DomainError('idempotency_key_reused', CLIENT_ID_REUSED);
    return { message: prior, created: false };
  }

  /**
   * Sends a message: stored once per (sender, client_id) however often it is retried. One transaction: the
   * message, the booking's last message and activity time and my read mark (I have seen my own conversation, so
   * my unread notification of it is read too), the other person's notification (grouped per conversation while
   * unread; a retried client_id adds none), then `message.created` to both people through the outbox, written last.
   * The transaction is one database function called in autocommit (`rr_send_message`, migration 0041): one round
   * trip, which counts `limits` first (the write throttle and the messages' allowance): over one, nothing is written.
   */
  async function send(
    userId: string,
    bookingId: string,
    input: { body: string; client_id: string },
    limits: FoldedLimits,
  ): Promise<{ message: Message; created: boolean }> {
    const [row] = rowsOf<{ answer: SendAnswer }>(
      await sendStatement(db, {
        bookingId,
        senderId: userId,
        clientId: input.client_id,
        body: input.body,
        openHours: OPEN_HOURS,
        mailDelaySeconds: MESSAGE_MAIL_DELAY_SECONDS,
        mailBucketSeconds: MESSAGE_MAIL_INTERVAL_MINUTES * 60,
        hits: limits.json,
      }),
    );
    const answer = row?.answer;
    if (!answer) throw new Error('rr_send_message answered nothing');
    if ('limited' in answer)
      throw limits.refusal(answer.limited) ?? new Error('rr_send_message limited without a refusal');
    if ('message' in answer) return { message: answer.message, created: true };
    if ('prior' in answer) return replay(answer.prior, bookingId, input.body);
    if (answer.refused === 'not_found') throw notFound(BOOKING_NOT_FOUND);
    throw answer.refused === 'closed' ? closed() : blocked();
  }

  /**
   * Marks everything in the conversation as read by me: my read mark becomes the latest message's time, never
   * earlier than it was. When it moves, both people hear `conversation.read` (the other's 'Seen', my other tabs),
   * and my unread notification of the conversation is read too (`notification.read` to me).
   */
  async function markRead(userId: string, bookingId: string): Promise<{ read_at: string | null }> {
    return db.transaction(async (tx) => {
      const conv = await conversationOf(tx, userId, bookingId, true);
      const latest = conv.lastMessageAt;
      if (!latest || (conv.myReadAt && conv.myReadAt.getTime() >= latest.getTime()))
        return { read_at: conv.myReadAt?.toISOString() ?? null };
      await tx
        .update(bookings)
        .set({ [conv.myReadColumn]: latest })
        .where(eq(bookings.id, bookingId));
      const readAt = latest.toISOString();
      const out = new Outbox().add([conv.driverId, conv.requesterId], 'conversation.read', {
        booking_id: bookingId,
        reader_id: userId,
        read_at: readAt,
      });
      await readMessageNotice(tx, out, userId, bookingId);
      await out.flush(tx);
      return { read_at: readAt };
    });
  }

  /**
   * My conversations, most recent activity first: every booking I am a party to (a conversation exists from the
   * offer). Each role reads its own (party, activity_at, id) index up to `limit + 1` rows past the cursor; the
   * two are merged, and only the page's rows are joined with names, titles, the latest message and unread counts.
   */
  async function conversations(userId: string, req: PageRequest): Promise<Page<ConversationSummary>> {
    const key = decodeCursor(req.cursor, conversationCursor);
    const limit = req.limit + 1;
    const after = (party: SQL) =>
      key
        ? sql`${party} = ${userId} and (b.activity_at, b.id) < (${key[0]}::timestamptz, ${key[1]}::uuid)`
        : sql`${party} = ${userId}`;
    const mine = (party: SQL) =>
      sql`(select b.id, b.activity_at from ${bookings} b where ${after(party)} order by b.activity_at desc, b.id desc limit ${limit})`;
    const myRead = sql`case when b.driver_id = ${userId} then b.driver_read_at else b.requester_read_at end`;
    const otherId = sql`case when b.driver_id = ${userId} then b.requester_id else b.driver_id end`;
    const result = await db.execute(sql`
      with mine as (${mine(sql`b.driver_id`)} union all ${mine(sql`b.requester_id`)}),
      page as (select id, activity_at from mine order by activity_at desc, id desc limit ${limit})
      select b.id as booking_id,
             o.user_id as other_id,
             o.full_name as other_name,
             o.verified as other_verified,
             ${ambassadorOf(sql`o.plan`)} as other_ambassador,
             r.title as request_title,
             lm.body as last_body,
             lm.sender_id as last_sender_id,
             ${iso(sql`lm.created_at`)} as last_created_at,
             (select count(*)::int from messages m
               where m.booking_id = b.id and m.sender_id <> ${userId}
                 and m.created_at > coalesce(${myRead}, '-infinity'::timestamptz)) as unread_count,
             (b.ended_at is not null and b.ended_at + make_interval(hours => ${OPEN_HOURS}) <= now()) as is_closed,
             ${blockedWith(userId, otherId)} as is_blocked,
             ${iso(sql`b.activity_at`)} as activity_at
      from page p
      join bookings b on b.id = p.id
      join delivery_requests r on r.id = b.request_id
      join profiles o on o.user_id = ${otherId}
      left join lateral (
        select m.body, m.sender_id, m.created_at from messages m
        where m.booking_id = b.id order by m.created_at desc, m.id desc limit 1
      ) lm on true
      order by b.activity_at desc, b.id desc`);
    const rows = rowsOf<{
      booking_id: string;
      other_id: string;
      other_name: string;
      other_verified: boolean;
      other_ambassador: boolean;
      request_title: string;
      last_body: string | null;
      last_sender_id: string | null;
      last_created_at: string | null;
      unread_count: number;
      is_closed: boolean;
      is_blocked: boolean;
      activity_at: string;
    }>(result);
    const more = rows.length > req.limit;
    const pageRows = more ? rows.slice(0, req.limit) : rows;
    const last = pageRows[pageRows.length - 1];
    return {
      items: pageRows.map((r) => ({
        booking_id: r.booking_id,
        other: { id: r.other_id, full_name: r.other_name, verified: r.other_verified, ambassador: r.other_ambassador },
        request_title: r.request_title,
        last_message:
          r.last_body !== null && r.last_created_at !== null
            ? { preview: previewOf(r.last_body), from_me: r.last_sender_id === userId, created_at: r.last_created_at }
            : null,
        unread_count: Number(r.unread_count),
        state: stateOf(r.is_closed, r.is_blocked),
        activity_at: r.activity_at,
      })),
      next_cursor: more && last ? encodeCursor([last.activity_at, last.booking_id]) : null,
    };
  }

  /** The sidebar badge: conversations with a message from the other person after my read mark. */
  async function unread(userId: string): Promise<Unread> {
    // One count per role, each over its own (party, ...) index; last_message_at after my mark is the cheap test
    // (my own messages move my mark), the EXISTS the exact one.
    const count = (party: SQL, mark: SQL) => sql`(select count(*)::int from ${bookings} b
      where ${party} = ${userId} and b.last_message_at > coalesce(${mark}, '-infinity'::timestamptz)
        and exists (select 1 from messages m where m.booking_id = b.id and m.sender_id <> ${userId}
                      and m.created_at > coalesce(${mark}, '-infinity'::timestamptz)))`;
    const result = await db.execute(
      sql`select ${count(sql`b.driver_id`, sql`b.driver_read_at`)} + ${count(sql`b.requester_id`, sql`b.requester_read_at`)} as n`,
    );
    return { conversations: Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0) };
  }

  return { page, send, markRead, conversations, unread };
}

export type MessageService = ReturnType<typeof createMessageService>;
