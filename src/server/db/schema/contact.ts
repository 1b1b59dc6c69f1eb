import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { CONTACT_LIMITS } from '../../../shared/contact';

// ─── Contact (public site) ───────────────────────────────────────────────────────────────────────────────────────
/**
 * Messages sent through /contact. Nothing a visitor wrote is lost: the row is written before the visitor is told
 * the message was sent. No IP address is kept: the spam guard counts in attempt_counters under a hash.
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
