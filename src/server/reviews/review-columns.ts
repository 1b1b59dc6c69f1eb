import { eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { BookingRole } from '../../shared/lifecycle';
import type { Review } from '../../shared/reviews';
import { profiles, reviews } from '../db/schema';
import { ambassadorOf } from '../plans';

/** Reviewer's and reviewee's names: join these two aliases of `profiles` (see `withNames`). */
export const reviewerProfile = alias(profiles, 'reviewer_profile');
export const revieweeProfile = alias(profiles, 'reviewee_profile');

/** The columns every view of a review reads; `toReview` turns one such row into the contract's Review. */
export const reviewColumns = {
  id: reviews.id,
  bookingId: reviews.bookingId,
  rating: reviews.rating,
  comment: reviews.comment,
  reviewerId: reviews.reviewerId,
  reviewerName: reviewerProfile.fullName,
  reviewerVerified: reviewerProfile.verified,
  reviewerAmbassador: ambassadorOf(reviewerProfile.plan),
  reviewerRole: reviews.reviewerRole,
  revieweeId: reviews.revieweeId,
  revieweeName: revieweeProfile.fullName,
  createdAt: reviews.createdAt,
  publishedAt: reviews.publishedAt,
  reply: reviews.reply,
  repliedAt: reviews.repliedAt,
};

export interface ReviewRow {
  id: string;
  bookingId: string;
  rating: number;
  comment: string | null;
  reviewerId: string;
  reviewerName: string;
  reviewerVerified: boolean;
  reviewerAmbassador: boolean;
  reviewerRole: string;
  revieweeId: string;
  revieweeName: string;
  createdAt: Date;
  publishedAt: Date | null;
  reply: string | null;
  repliedAt: Date | null;
}

/** The join conditions for the two name aliases, for `.innerJoin(reviewerProfile, reviewerJoin)` etc. */
export const reviewerJoin = eq(reviewerProfile.userId, reviews.reviewerId);
export const revieweeJoin = eq(revieweeProfile.userId, reviews.revieweeId);

export function toReview(row: ReviewRow): Review {
  return {
    id: row.id,
    booking_id: row.bookingId,
    rating: row.rating,
    comment: row.comment,
    reviewer: {
      id: row.reviewerId,
      full_name: row.reviewerName,
      verified: row.reviewerVerified,
      ambassador: row.reviewerAmbassador,
    },
    // The column's CHECK allows only the two roles.
    reviewer_role: row.reviewerRole as BookingRole,
    reviewee: { id: row.revieweeId, full_name: row.revieweeName },
    created_at: row.createdAt.toISOString(),
    published_at: row.publishedAt?.toISOString() ?? null,
    reply: row.reply !== null && row.repliedAt ? { body: row.reply, created_at: row.repliedAt.toISOString() } : null,
  };
}

/** Published reviews only: the one filter every reader but the author applies. */
export const isPublished = sql`${reviews.publishedAt} is not null`;
