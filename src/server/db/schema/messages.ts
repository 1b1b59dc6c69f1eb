import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { MESSAGE_MAX } from '../../../shared/messages';
import { lengthBetween } from './checks';
import { users } from './accounts';
import { bookings } from './marketplace';

// ─── Messages: one conversation per booking, between its driver and its requester ────────────────────
export const messages = pgTable(
  'messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    bookingId: uuid('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    senderId: uuid('sender_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Chosen by the sender's browser: a retried send with the same id is answered with the stored message. */
    clientId: uuid('client_id').notNull(),
    body: text('body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 })
      .notNull()
      .default(sql`clock_timestamp()`),
  },
  (t) => [
    uniqueIndex('messages_sender_client_key').on(t.senderId, t.clientId),
    index('messages_booking_created_idx').on(t.bookingId, t.createdAt, t.id),
    check('messages_body_length', lengthBetween(t.body, MESSAGE_MAX)),
  ],
);
