import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { CONTACT_LIMITS } from '../../shared/contact';
import { LIMITS } from '../../shared/limits';

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Stored trimmed and lower-cased; the unique index on lower(email) guards against any other writer. */
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    ageConfirmedAt: timestamp('age_confirmed_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`),
    check('users_email_length', sql`char_length(${t.email}) between 3 and ${sql.raw(String(LIMITS.emailMax))}`),
  ],
);

export const profiles = pgTable(
  'profiles',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    fullName: text('full_name').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      'profiles_full_name_length',
      sql`char_length(${t.fullName}) between 1 and ${sql.raw(String(LIMITS.fullNameMax))}`,
    ),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** SHA-256 of the opaque token, hex. The token itself is never stored. */
    tokenHash: text('token_hash').notNull().unique(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    aal: text('aal').notNull().default('aal1'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    userAgent: text('user_agent'),
  },
  (t) => [index('sessions_user_id_idx').on(t.userId), check('sessions_aal_check', sql`${t.aal} in ('aal1', 'aal2')`)],
);

// ─── Contact (public site) ───────────────────────────────────────────────────────────────────────────────────────
/**
 * Messages sent through /contact. Nothing a visitor wrote is lost: the row is written before the visitor is told
 * the message was sent. No IP address is kept (rate limiting counts in memory only).
 */
export const contactMessages = pgTable(
  'contact_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    subject: text('subject').notNull(),
    message: text('message').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('contact_messages_created_at_idx').on(t.createdAt),
    check(
      'contact_messages_name_length',
      sql`char_length(${t.name}) between 1 and ${sql.raw(String(CONTACT_LIMITS.nameMax))}`,
    ),
    check(
      'contact_messages_email_length',
      sql`char_length(${t.email}) between 3 and ${sql.raw(String(CONTACT_LIMITS.emailMax))}`,
    ),
    check(
      'contact_messages_subject_length',
      sql`char_length(${t.subject}) between 1 and ${sql.raw(String(CONTACT_LIMITS.subjectMax))}`,
    ),
    check(
      'contact_messages_message_length',
      sql`char_length(${t.message}) between 1 and ${sql.raw(String(CONTACT_LIMITS.messageMax))}`,
    ),
  ],
);
