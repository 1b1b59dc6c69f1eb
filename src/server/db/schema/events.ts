import { bigint, index, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';

// ─── Live events (outbox): each user's stream, numbered per user in commit order ────────────────────────────────
/**
 * The head of each user's event stream. Writers bump it with an upsert as the last statement of their
 * transaction, so the row lock orders one user's events by commit: a reader that has seq N has every event below N.
 */
export const eventStreams = pgTable('event_streams', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  lastSeq: bigint('last_seq', { mode: 'number' }).notNull(),
});

/** One row per recipient and event, kept EVENT_RETENTION_HOURS for `Last-Event-ID` resumes (events/ sweeps). */
export const userEvents = pgTable(
  'user_events',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    type: text('type').notNull(),
    data: jsonb('data').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.seq] }), index('user_events_created_idx').on(t.createdAt)],
);
