import { and, desc, eq, sql, type AnyColumn } from 'drizzle-orm';
import { z } from 'zod';
import type { Page } from '../../shared/marketplace';
import { ratingFrom } from '../../shared/rating';
import type { Profile, Review } from '../../shared/reviews';
import { notFound } from '../core/domain-error';
import type { Db } from '../db/client';
import { cursorInstant, cursorUuid, keysetList, type PageRequest } from '../db/keyset';
import { bookings, profiles, reviews, users } from '../db/schema';
import { ambassadorOf } from '../plans';
import {
  isPublished,
  revieweeJoin,
  revieweeProfile,
  reviewColumns,
  reviewerJoin,
  reviewerProfile,
  toReview,
} from './review-columns';

/** The same answer for an unknown id, one that is not a uuid, and a suspended or deleted account. */
export const USER_NOT_FOUND = 'User not found.';

const reviewCursor = z.tuple([cursorInstant, cursorUuid]);

/**
 * Completed bookings in one role: a count over that role's (party, created_at, id) index, filtered by status on
 * the rows of one person only (bench/explain.ts shows the plan).
 */
const completedAs = (party: AnyColumn) =>
  sql<number>`(select count(*)::int from ${bookings} where ${party} = ${users.id} and ${bookings.status} = 'completed')`;

/**
 * Public profiles: any signed-in user may see anyone's name, how long they have been a member, their
 * completed deliveries in each role, their rating (the counters on the profile row, kept by the transaction that
 * publishes reviews) and their published reviews. A suspended or deleted account has no profile: 404, as for an
 * unknown id.
 */
export function createProfileService(db: Db) {
  const profileOf = db
    .select({
      id: users.id,
      fullName: profiles.fullName,
      about: profiles.about,
      createdAt: users.createdAt,
      deliveriesMade: completedAs(bookings.driverId),
      requestsDelivered: completedAs(bookings.requesterId),
      ratingCount: profiles.ratingCount,
      ratingSum: profiles.ratingSum,
      emailVerified: sql<boolean>`${profiles.emailVerifiedAt} is not null`,
      phoneVerified: sql<boolean>`${profiles.phoneVerifiedAt} is not null`,
      idChecked: sql<boolean>`${profiles.idCheckedAt} is not null`,
      verified: profiles.verified,
      ambassador: ambassadorOf(profiles.plan),
    })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(and(eq(users.id, sql.placeholder('id')), sql`${users.suspendedAt} is null and ${users.deletedAt} is null`))
    .prepare('profile');

  const visible = db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, sql.placeholder('id')), sql`${users.suspendedAt} is null and ${users.deletedAt} is null`))
    .prepare('profile_visible');

  // Newest first over the partial index reviews_reviewee_published_idx (reviewee_id, published_at, id), read
  // backwards; `isPublished` is the index's own predicate, so the planner can use it.
  const reviewsOf = keysetList({
    name: 'profile_reviews',
    from: () =>
      db
        .select(reviewColumns)
        .from(reviews)
        .innerJoin(reviewerProfile, reviewerJoin)
        .innerJoin(revieweeProfile, revieweeJoin)
        .$dynamic(),
    filter: sql`${reviews.revieweeId} = ${sql.placeholder('userId')} and ${isPublished}`,
    after: sql`(${reviews.publishedAt}, ${reviews.id}) < (${sql.placeholder('at')}::timestamptz, ${sql.placeholder('id')}::uuid)`,
    orderBy: [desc(reviews.publishedAt), desc(reviews.id)],
    cursor: reviewCursor,
    bind: ([at, id]) => ({ at, id }),
    // Only published rows are listed, so published_at is set.
    sortKey: (row) => [row.publishedAt!.toISOString(), row.id],
  });

  async function profile(userId: string): Promise<Profile> {
    const [row] = await profileOf.execute({ id: userId });
    if (!row) throw notFound(USER_NOT_FOUND);
    return {
      id: row.id,
      full_name: row.fullName,
      about: row.about,
      member_since: row.createdAt.toISOString(),
      deliveries_made: row.deliveriesMade,
      requests_delivered: row.requestsDelivered,
      rating: ratingFrom(row.ratingCount, row.ratingSum),
      verification: { email: row.emailVerified, phone: row.phoneVerified, id: row.idChecked },
      verified: row.verified,
      ambassador: row.ambassador,
    };
  }

  /** The person's published reviews, newest first (published_at, then id); 404 when the profile is. */
  async function reviewPage(userId: string, page: PageRequest): Promise<Page<Review>> {
    const [person, list] = await Promise.all([visible.execute({ id: userId }), reviewsOf({ userId }, page, toReview)]);
    if (person.length === 0) throw notFound(USER_NOT_FOUND);
    return list;
  }

  return { profile, reviews: reviewPage };
}

export type ProfileService = ReturnType<typeof createProfileService>;
