import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { NOTIFICATION_TYPES } from '../../../shared/notifications';
import { oneOf } from './checks';
import { users } from './accounts';

// Notifications, their e-mail switches, and the browsers a sign-in notice knows.

// ─── Notifications ──────────────────────────────────────────────────────────────────────────────────────
/**
 * One notification of one person (src/shared/notifications.ts, docs/notifications.md), written in the transaction
 * of the event that causes it, together with its e-mail job. `data` holds the names, title and ids its words and
 * link need, as they were then. Message notifications are grouped: while one is unread, a new message of the same
 * conversation updates it (`group_key` 'message:<booking>', count + 1, created_at now) instead of adding another.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    data: jsonb('data').notNull().default({}),
    groupKey: text('group_key'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    readAt: timestamp('read_at', { withTimezone: true, precision: 3 }),
    /** When its e-mail was handed to the mail server (message mails: the 15-minute throttle reads it). */
    emailedAt: timestamp('emailed_at', { withTimezone: true, precision: 3 }),
    /** The job that set emailed_at: its retry sends again instead of waiting for the throttle. */
    emailedByJob: bigint('emailed_by_job', { mode: 'number' }),
  },
  (t) => [
    // The list, newest first, keyset on (created_at, id).
    index('notifications_user_created_idx').on(t.userId, t.createdAt, t.id),
    // The bell's count.
    index('notifications_unread_idx')
      .on(t.userId)
      .where(sql`${t.readAt} is null`),
    // At most one unread notification per group (a conversation's messages).
    uniqueIndex('notifications_group_unread_idx')
      .on(t.userId, t.groupKey)
      .where(sql`${t.readAt} is null`),
    // The message-mail throttle: this group's last e-mail.
    index('notifications_group_emailed_idx')
      .on(t.userId, t.groupKey, t.emailedAt)
      .where(sql`${t.groupKey} is not null`),
    // Cleanup of old read notifications.
    index('notifications_read_at_idx')
      .on(t.readAt)
      .where(sql`${t.readAt} is not null`),
    check('notifications_type_check', oneOf(t.type, NOTIFICATION_TYPES)),
  ],
);

/** The e-mail switches of one person: the optional types whose e-mails are off (absent row = every one on). */
export const notificationPreferences = pgTable('notification_preferences', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  emailOff: text('email_off')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
});

/**
 * Browsers that have signed in to an account (a random id in a long-lived cookie, stored hashed): a sign-in from a
 * browser not in this list sends the 'new_sign_in' security notice.
 */
export const knownBrowsers = pgTable(
  'known_browsers',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** SHA-256 of the cookie's value, hex. */
    browserHash: text('browser_hash').notNull(),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.browserHash] })],
);
