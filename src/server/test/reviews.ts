import { eq, sql } from 'drizzle-orm';
import type { BookingRole } from '../../shared/lifecycle';
import type { Db } from '../db/client';
import { profiles, reviews } from '../db/schema';
import type { lifecycleHelpers } from './lifecycle';

type Account = { token: string; user: { id: string } };
type Lifecycle = ReturnType<typeof lifecycleHelpers>;

/** A completed booking and its two people, as a review needs them. */
export interface CompletedBooking {
  bookingId: string;
  requestId: string;
  driverId: string;
  requesterId: string;
}

/**
 * One delivery carried from request to completed over the API, between two given people: the requester posts,
 * the driver offers, the requester chooses and confirms receipt.
 */
export async function completeDelivery(
  life: Lifecycle,
  requester: Account,
  driver: Account,
  title = 'Feed sacks',
): Promise<CompletedBooking> {
  const request = await life.postRequest(requester.token, title);
  const offer = await life.offer(driver.token, request.id);
  const chosen = await life.act(requester.token, offer.id, 'choose');
  if (chosen.status !== 200) throw new Error(`choose refused: ${chosen.status} ${JSON.stringify(chosen.body)}`);
  const done = await life.act(requester.token, offer.id, 'receive');
  if (done.status !== 200 || done.body.status !== 'completed')
    throw new Error(`receive refused: ${done.status} ${JSON.stringify(done.body)}`);
  return { bookingId: offer.id, requestId: request.id, driverId: driver.user.id, requesterId: requester.user.id };
}

export interface SeededReview {
  /** Who writes it: the booking's driver reviews its requester, and the other way round. */
  by: BookingRole;
  rating: number;
  comment?: string | null;
  /** Null leaves it unpublished (only its author would see it). Defaults to now. */
  publishedAt?: Date | null;
  createdAt?: Date;
  reply?: string;
}

/**
 * Stores a review of a completed booking as the review flow leaves it, without going through its API: a
 * published one also adds to the reviewee's rating counters, in the same transaction (as publishing does).
 */
export async function seedReview(db: Db, booking: CompletedBooking, review: SeededReview) {
  const publishedAt = review.publishedAt === undefined ? new Date() : review.publishedAt;
  const [reviewerId, revieweeId] =
    review.by === 'driver' ? [booking.driverId, booking.requesterId] : [booking.requesterId, booking.driverId];
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(reviews)
      .values({
        bookingId: booking.bookingId,
        reviewerId,
        revieweeId,
        reviewerRole: review.by,
        rating: review.rating,
        comment: review.comment ?? null,
        createdAt: review.createdAt ?? publishedAt ?? new Date(),
        publishedAt,
        reply: review.reply ?? null,
        repliedAt: review.reply === undefined ? null : (publishedAt ?? new Date()),
      })
      .returning();
    if (!row) throw new Error('review insert returned no row');
    if (publishedAt)
      await tx
        .update(profiles)
        .set({
          ratingCount: sql`${profiles.ratingCount} + 1`,
          ratingSum: sql`${profiles.ratingSum} + ${review.rating}`,
        })
        .where(eq(profiles.userId, revieweeId));
    return row;
  });
}
