import { and, eq, isNotNull, isNull, or } from 'drizzle-orm';
import type { BookingRole } from '../../shared/lifecycle';
import { REVIEW_ERRORS, type BookingReviews, type Review, type reviewInputSchema } from '../../shared/reviews';
import type { z } from 'zod';
import { DomainError, notFound } from '../core/domain-error';
import type { Db } from '../db/client';
import { bookings, reviews } from '../db/schema';
import { Outbox } from '../events';
import { closesAt, publishReviews } from './publish';
import {
  revieweeJoin,
  revieweeProfile,
  reviewColumns,
  reviewerJoin,
  reviewerProfile,
  toReview,
} from './review-columns';

/** The same answer as the booking page for anyone who is not one of its two people (or an unknown id). */
export const BOOKING_NOT_FOUND = 'Booking not found.';
/** An unknown review, one not about me, or one not published yet: I may not reply to (or report) it. */
export const REVIEW_NOT_FOUND = 'Review not found.';

const refusal = (code: keyof typeof REVIEW_ERRORS) => new DomainError(code, REVIEW_ERRORS[code].message);

type ReviewInput = z.output<typeof reviewInputSchema>;

/**
 * Leaving, reading and answering reviews (src/shared/reviews.ts; docs/decisions/019-double-blind-reviews.md).
 * `clock` is the time every rule here reads (the 14-day period, created_at, published_at, replied_at): the app's
 * wall clock, or a test's.
 */
export function createReviewService(db: Db, clock: () => Date) {
  /** The booking as one of its two people sees it, or 404. `lock` holds its row for the rest of the transaction. */
  async function bookingOf(tx: Db, userId: string, bookingId: string, lock = false) {
    const q = tx
      .select({
        id: bookings.id,
        status: bookings.status,
        driverId: bookings.driverId,
        requesterId: bookings.requesterId,
        endedAt: bookings.endedAt,
      })
      .from(bookings)
      .where(and(eq(bookings.id, bookingId), or(eq(bookings.driverId, userId), eq(bookings.requesterId, userId))));
    const [row] = lock ? await q.for('no key update') : await q;
    if (!row) throw notFound(BOOKING_NOT_FOUND);
    const asDriver = row.driverId === userId;
    const completed = row.status === 'completed' && row.endedAt !== null;
    return {
      ...row,
      myRole: (asDriver ? 'driver' : 'requester') as BookingRole,
      otherId: asDriver ? row.requesterId : row.driverId,
      closesAt: completed ? closesAt(row.endedAt!) : null,
    };
  }

  const withNames = (tx: Db) =>
    tx
      .select(reviewColumns)
      .from(reviews)
      .innerJoin(reviewerProfile, reviewerJoin)
      .innerJoin(revieweeProfile, revieweeJoin)
      .$dynamic();

  /**
   * The review part of a booking page: my review whatever its state, the other's review of me only once published,
   * whether they have reviewed at all, and whether reviewing is open (by the clock).
   */
  async function read(userId: string, bookingId: string): Promise<BookingReviews> {
    const booking = await bookingOf(db, userId, bookingId);
    const rows = await withNames(db).where(eq(reviews.bookingId, booking.id));
    const mine = rows.find((r) => r.reviewerId === userId) ?? null;
    const theirs = rows.find((r) => r.reviewerId === booking.otherId) ?? null;
    const state = !booking.closesAt ? 'not_completed' : clock() >= booking.closesAt ? 'closed' : 'open';
    return {
      state,
      closes_at: booking.closesAt?.toISOString() ?? null,
      mine: mine ? toReview(mine) : null,
      theirs: theirs?.publishedAt ? toReview(theirs) : null,
      other_reviewed: theirs !== null,
    };
  }

  /**
   * Leaves my review of the other person. One transaction with the booking's row locked first, so the two people's
   * submissions run one after the other: the second sees the first and publishes both (at the same clock value,
   * with the rating counters and each reviewee's notice). Then `review.changed` to both, written last.
   */
  async function submit(userId: string, bookingId: string, input: ReviewInput): Promise<BookingReviews> {
    await db.transaction(async (tx) => {
      const booking = await bookingOf(tx, userId, bookingId, true);
      if (!booking.closesAt) throw refusal('review_not_open');
      const now = clock();
      if (now >= booking.closesAt) throw refusal('review_period_ended');
      const [inserted] = await tx
        .insert(reviews)
        .values({
          bookingId: booking.id,
          reviewerId: userId,
          revieweeId: booking.otherId,
          reviewerRole: booking.myRole,
          rating: input.rating,
          comment: input.comment,
          createdAt: now,
        })
        .onConflictDoNothing({ target: [reviews.bookingId, reviews.reviewerId] })
        .returning({ id: reviews.id });
      if (!inserted) throw refusal('already_reviewed');
      const [other] = await tx
        .select({ id: reviews.id })
        .from(reviews)
        .where(and(eq(reviews.bookingId, booking.id), eq(reviews.reviewerId, booking.otherId)));
      const out = new Outbox().add([booking.driverId, booking.requesterId], 'review.changed', {
        booking_id: booking.id,
        published: Boolean(other),
      });
      // Both reviews at once, each reviewee notified of the review of them.
      if (other) await publishReviews(tx, [booking.id], now, out);
      await out.flush(tx);
    });
    return read(userId, bookingId);
  }

  /**
   * The reviewed person's one public answer under a published review. A guarded update (`reply is null`), so of
   * two simultaneous replies one wins and the other gets 409. Then `review.changed` to both.
   */
  async function reply(userId: string, reviewId: string, body: string): Promise<Review> {
    return db.transaction(async (tx) => {
      const [done] = await tx
        .update(reviews)
        .set({ reply: body, repliedAt: clock() })
        .where(
          and(
            eq(reviews.id, reviewId),
            eq(reviews.revieweeId, userId),
            isNotNull(reviews.publishedAt),
            isNull(reviews.reply),
          ),
        )
        .returning({ id: reviews.id });
      if (!done) {
        const [review] = await tx
          .select({ id: reviews.id })
          .from(reviews)
          .where(and(eq(reviews.id, reviewId), eq(reviews.revieweeId, userId), isNotNull(reviews.publishedAt)));
        throw review ? refusal('already_replied') : notFound(REVIEW_NOT_FOUND);
      }
      const [row] = await withNames(tx).where(eq(reviews.id, reviewId));
      if (!row) throw new Error('replied review vanished');
      const out = new Outbox().add([row.reviewerId, row.revieweeId], 'review.changed', {
        booking_id: row.bookingId,
        published: true,
      });
      await out.flush(tx);
      return toReview(row);
    });
  }

  return { read, submit, reply };
}

export type ReviewService = ReturnType<typeof createReviewService>;
