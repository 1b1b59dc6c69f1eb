import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { CONTACT_LIMITS } from '../../../shared/contact';
import { users } from './accounts';

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
    // ─── The support inbox (issue 38) ───
    /** The signed-in member who sent it (null for a visitor); kept when the account is deleted as null. */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The sender's paid plan when they sent it ('plus', 'community'): first in the inbox and marked. */
    plan: text('plan'),
    /** 'Reply': the answer mailed to the sender, who sent it and when ('Answered'). */
    reply: text('reply'),
    repliedBy: uuid('replied_by').references(() => users.id, { onDelete: 'set null' }),
    repliedAt: timestamp('replied_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [
    index('contact_messages_created_at_idx').on(t.createdAt),
    // The inbox: unanswered first, members with a plan first among them, oldest first.
    index('contact_messages_inbox_idx').on(
      sql`(${t.repliedAt} is not null)`,
      sql`(${t.plan} is null)`,
      t.createdAt,
      t.id,
    ),
    check('contact_messages_plan_check', sql`${t.plan} in ('plus', 'community')`),
    check('contact_messages_reply', sql`(${t.reply} is null) = (${t.repliedAt} is null)`),
    check(
      'contact_messages_reply_length',
      sql`char_length(${t.reply}) between 1 and ${sql.raw(String(CONTACT_LIMITS.messageMax))}`,
    ),
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
