import { sql } from 'drizzle-orm';
import { check, index, pgTable, smallint, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { REVIEW_COMMENT_MAX, REVIEW_REPLY_MAX } from '../../../shared/reviews';
import { lengthBetween, oneOf } from './checks';
import { users } from './accounts';
import { bookings } from './marketplace';

// ─── Reviews: one per person per completed booking, double-blind until both are in or 14 days pass ───
export const reviews = pgTable(
  'reviews',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    bookingId: uuid('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    reviewerId: uuid('reviewer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    revieweeId: uuid('reviewee_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The reviewer's part in the booking ('driver' reviews the requester). */
    reviewerRole: text('reviewer_role').notNull(),
    rating: smallint('rating').notNull(),
    comment: text('comment'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    /** Set for both reviews of a booking at once: when the second arrives, or by the sweep after 14 days. */
    publishedAt: timestamp('published_at', { withTimezone: true, precision: 3 }),
    reply: text('reply'),
    repliedAt: timestamp('replied_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [
    // One review per person per booking: a second (or a concurrent double submit) fails with 23505.
    uniqueIndex('reviews_booking_reviewer_key').on(t.bookingId, t.reviewerId),
    // A profile's published reviews, newest first.
    index('reviews_reviewee_published_idx')
      .on(t.revieweeId, t.publishedAt, t.id)
      .where(sql`${t.publishedAt} is not null`),
    // The sweep's work: reviews still waiting for the other person (few: at most 14 days' worth).
    index('reviews_unpublished_idx')
      .on(t.bookingId)
      .where(sql`${t.publishedAt} is null`),
    index('reviews_reviewer_idx').on(t.reviewerId),
    check('reviews_role_check', oneOf(t.reviewerRole, ['driver', 'requester'])),
    check('reviews_rating_range', sql`${t.rating} between 1 and 5`),
    check('reviews_comment_length', lengthBetween(t.comment, REVIEW_COMMENT_MAX)),
    check('reviews_reply_length', lengthBetween(t.reply, REVIEW_REPLY_MAX)),
    check('reviews_not_self', sql`${t.reviewerId} <> ${t.revieweeId}`),
    check('reviews_reply_when_published', sql`${t.reply} is null or ${t.publishedAt} is not null`),
    check('reviews_replied_at', sql`(${t.reply} is null) = (${t.repliedAt} is null)`),
  ],
);
