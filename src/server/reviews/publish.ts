import { and, asc, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import { REVIEW_WINDOW_DAYS } from '../../shared/reviews';
import type { Db } from '../db/client';
import { bookings, profiles, reviews } from '../db/schema';
import { Outbox } from '../events';
import { notify } from '../notifications';

/** The review period: a booking can be reviewed until this long after it was completed (bookings.ended_at). */
export const REVIEW_WINDOW_MS = REVIEW_WINDOW_DAYS * 24 * 3_600_000;
/** Bookings published per sweep transaction. */
export const SWEEP_BATCH = 100;

/** When a completed booking's review period closes. */
export const closesAt = (endedAt: Date) => new Date(endedAt.getTime() + REVIEW_WINDOW_MS);

export interface PublishedReview {
  bookingId: string;
  reviewerId: string;
  revieweeId: string;
  rating: number;
}

/**
 * Publishes, at `at`, every review of `bookingIds` that is not published yet, and adds exactly those reviews to
 * their reviewees' rating counters. Run it inside a transaction that holds the bookings' rows locked: a review is
 * only ever inserted under that lock, so the UPDATE sees every review there is, and `published_at is null` makes
 * a second run (another instance's sweep, a racing submission) publish and count nothing twice. Each reviewee is
 * told of exactly those reviews ('review_published', in one `notify`; the caller flushes `out` last).
 */
export async function publishReviews(tx: Db, bookingIds: string[], at: Date, out: Outbox): Promise<PublishedReview[]> {
  if (!bookingIds.length) return [];
  const published = await tx
    .update(reviews)
    .set({ publishedAt: at })
    .where(and(inArray(reviews.bookingId, bookingIds), isNull(reviews.publishedAt)))
    .returning({
      bookingId: reviews.bookingId,
      reviewerId: reviews.reviewerId,
      revieweeId: reviews.revieweeId,
      rating: reviews.rating,
    });
  await addToRatings(tx, published);
  await notify(
    tx,
    out,
    published.map((r) => ({
      userId: r.revieweeId,
      type: 'review_published',
      actorId: r.reviewerId,
      bookingId: r.bookingId,
      data: { rating: r.rating, user_id: r.revieweeId },
    })),
  );
  return published;
}

/**
 * rating_count/rating_sum of each reviewee, one UPDATE per person in user-id order: two transactions publishing
 * reviews of the same people lock their profiles in the same order, so they queue instead of deadlocking.
 */
async function addToRatings(tx: Db, published: PublishedReview[]): Promise<void> {
  const byPerson = new Map<string, { count: number; sum: number }>();
  for (const r of published) {
    const acc = byPerson.get(r.revieweeId) ?? { count: 0, sum: 0 };
    acc.count += 1;
    acc.sum += r.rating;
    byPerson.set(r.revieweeId, acc);
  }
  for (const userId of [...byPerson.keys()].sort()) {
    const { count, sum } = byPerson.get(userId)!;
    await tx
      .update(profiles)
      .set({
        ratingCount: sql`${profiles.ratingCount} + ${count}::int`,
        ratingSum: sql`${profiles.ratingSum} + ${sum}::int`,
      })
      .where(eq(profiles.userId, userId));
  }
}

/**
 * The sweep: publishes the reviews of every booking whose review period has ended by `clock()` (completed at or
 * before clock() - 14 days) and that still has an unpublished review (only one of the two people reviewed). Each
 * batch is one transaction: the bookings' rows locked FOR NO KEY UPDATE SKIP LOCKED (a booking that a submission
 * or another instance's sweep holds is left to it), the reviews published at clock() with the counters, and
 * `review.changed` {published: true} to both people of each booking that had something published (and each
 * reviewee's notice). Idempotent and
 * safe to run on every instance at once. Returns how many reviews it published.
 */
export function createReviewSweep(db: Db, clock: () => Date, batch = SWEEP_BATCH) {
  async function publishBatch(at: Date, cutoff: Date): Promise<{ due: number; published: number }> {
    return db.transaction(async (tx) => {
      const waiting = tx.select({ id: reviews.bookingId }).from(reviews).where(isNull(reviews.publishedAt));
      const due = await tx
        .select({ id: bookings.id, driverId: bookings.driverId, requesterId: bookings.requesterId })
        .from(bookings)
        .where(
          and(
            inArray(bookings.id, waiting),
            eq(bookings.status, 'completed'),
            lte(bookings.endedAt, sql`${cutoff.toISOString()}::timestamptz`),
          ),
        )
        .orderBy(asc(bookings.id))
        .limit(batch)
        .for('no key update', { skipLocked: true });
      if (!due.length) return { due: 0, published: 0 };
      const out = new Outbox();
      const published = await publishReviews(
        tx,
        due.map((b) => b.id),
        at,
        out,
      );
      const touched = new Set(published.map((r) => r.bookingId));
      for (const b of due)
        if (touched.has(b.id))
          out.add([b.driverId, b.requesterId], 'review.changed', { booking_id: b.id, published: true });
      await out.flush(tx);
      return { due: due.length, published: published.length };
    });
  }

  async function publishDue(): Promise<number> {
    const at = clock();
    const cutoff = new Date(at.getTime() - REVIEW_WINDOW_MS);
    let total = 0;
    for (;;) {
      const { due, published } = await publishBatch(at, cutoff);
      total += published;
      // A short batch was the last one; rows skipped as locked belong to whoever holds them.
      if (due < batch) return total;
    }
  }

  return { publishDue };
}

export type ReviewSweep = ReturnType<typeof createReviewSweep>;
