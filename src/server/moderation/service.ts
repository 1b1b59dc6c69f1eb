import { and, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Page } from '../../shared/marketplace';
import type { BlockedPerson, reportInputSchema } from '../../shared/moderation';
import { declineOffersBetween } from '../bookings';
import { DomainError, notFound } from '../core/domain-error';
import type { Db } from '../db/client';
import { cursorInstant, cursorUuid, keysetList, type PageRequest } from '../db/keyset';
import { blocks, bookings, profiles, reports, reviews, users } from '../db/schema';
import { Outbox } from '../events';
import { notify } from '../notifications';

export const USER_NOT_FOUND = 'User not found.';
export const NOT_BLOCKED = "You haven't blocked this person.";
export const BLOCK_SELF = "You can't block yourself.";
export const REPORT_SELF = "You can't report yourself.";
export const SHARED_BOOKING_NOT_FOUND = 'Booking not found.';
export const REPORTED_REVIEW_NOT_FOUND = 'Review not found.';

const blockCursor = z.tuple([cursorInstant, cursorUuid]);

const toBlocked = (row: { userId: string; fullName: string; createdAt: Date }): BlockedPerson => ({
  user: { id: row.userId, full_name: row.fullName },
  created_at: row.createdAt.toISOString(),
});

/**
 * Blocks: one row per direction asked, symmetric in effect (docs/decisions/017-blocking-and-moderation.md). Only
 * the blocker's own row can be undone by them; if the other blocked back, the two stay apart.
 */
export function createBlockService(db: Db) {
  /**
   * Blocks `userId` for `blockerId`; `created` is false when it already was (nothing changes then). One
   * transaction: both users rows are locked (FOR NO KEY UPDATE, in id order), which waits for any accept between
   * the two that holds the requester's row FOR SHARE, so no offer slips past; then the row, then every pending
   * offer between them declined with its event, live 'booking.changed' and the blocked driver's notice.
   */
  async function block(blockerId: string, userId: string): Promise<{ created: boolean; item: BlockedPerson }> {
    if (blockerId === userId) throw new DomainError('validation_error', BLOCK_SELF);
    return db.transaction(async (tx) => {
      const people = await tx
        .select({ id: users.id, fullName: profiles.fullName })
        .from(users)
        .innerJoin(profiles, eq(profiles.userId, users.id))
        .where(inArray(users.id, [blockerId, userId]))
        .orderBy(users.id)
        .for('no key update', { of: users });
      const target = people.find((p) => p.id === userId);
      if (!target) throw notFound(USER_NOT_FOUND);
      const [inserted] = await tx
        .insert(blocks)
        .values({ blockerId, blockedId: userId })
        .onConflictDoNothing()
        .returning({ createdAt: blocks.createdAt });
      if (!inserted) {
        const [existing] = await tx
          .select({ createdAt: blocks.createdAt })
          .from(blocks)
          .where(and(eq(blocks.blockerId, blockerId), eq(blocks.blockedId, userId)));
        if (!existing) throw new Error('block row vanished under its users lock');
        return { created: false, item: toBlocked({ userId, fullName: target.fullName, ...existing }) };
      }
      const out = new Outbox();
      await notify(tx, out, await declineOffersBetween(tx, blockerId, userId, blockerId, out));
      // Last: the outbox takes its locks after every other lock of the transaction.
      await out.flush(tx);
      return { created: true, item: toBlocked({ userId, fullName: target.fullName, ...inserted }) };
    });
  }

  /** Removes my block of `userId`; false when I had none. */
  async function unblock(blockerId: string, userId: string): Promise<boolean> {
    const gone = await db
      .delete(blocks)
      .where(and(eq(blocks.blockerId, blockerId), eq(blocks.blockedId, userId)))
      .returning({ id: blocks.blockedId });
    return gone.length > 0;
  }

  // A person blocks few people: the primary key's (blocker_id, ...) range, sorted, is all it reads.
  const mine = keysetList({
    name: 'blocks_mine',
    from: () =>
      db
        .select({ userId: blocks.blockedId, fullName: profiles.fullName, createdAt: blocks.createdAt })
        .from(blocks)
        .innerJoin(profiles, eq(profiles.userId, blocks.blockedId))
        .$dynamic(),
    filter: sql`${blocks.blockerId} = ${sql.placeholder('userId')}`,
    after: sql`(${blocks.createdAt}, ${blocks.blockedId}) < (${sql.placeholder('at')}::timestamptz, ${sql.placeholder('id')}::uuid)`,
    orderBy: [desc(blocks.createdAt), desc(blocks.blockedId)],
    cursor: blockCursor,
    bind: ([at, id]) => ({ at, id }),
    sortKey: (r) => [r.createdAt.toISOString(), r.userId],
  });

  /** The people I blocked, newest first. */
  async function list(blockerId: string, page: PageRequest): Promise<Page<BlockedPerson>> {
    return mine({ userId: blockerId }, page, toBlocked);
  }

  return { block, unblock, list };
}

export type BlockService = ReturnType<typeof createBlockService>;

/** Reports from one person about another, for the moderators' queue (moderation/admin.ts). */
export function createReportService(db: Db) {
  /**
   * Files a report. The reported person must exist (404), not be the reporter (400); a booking, when named, must
   * be one the two share, as driver and requester either way round (404 otherwise, as for any booking of others).
   * A review, when named, must be published (anyone signed in can read it on a profile) and written by the
   * reported person, not by me; else 404, the same as for a review that does not exist (an unpublished one is its
   * author's alone).
   */
  async function report(reporterId: string, input: z.output<typeof reportInputSchema>): Promise<{ id: string }> {
    const reportedId = input.reported_user_id;
    const reviewId = input.review_id ?? null;
    if (reviewId) {
      // Checked first: my own review is not mine to report, whoever I name (404 like any review I cannot report).
      const [review] = await db
        .select({ id: reviews.id })
        .from(reviews)
        .where(
          and(
            eq(reviews.id, reviewId),
            eq(reviews.reviewerId, reportedId),
            ne(reviews.reviewerId, reporterId),
            sql`${reviews.publishedAt} is not null`,
          ),
        );
      if (!review) throw notFound(REPORTED_REVIEW_NOT_FOUND);
    }
    if (reporterId === reportedId) throw new DomainError('validation_error', REPORT_SELF);
    const [target] = await db.select({ id: users.id }).from(users).where(eq(users.id, reportedId));
    if (!target) throw notFound(USER_NOT_FOUND);
    const bookingId = input.booking_id ?? null;
    if (bookingId) {
      const [shared] = await db
        .select({ id: bookings.id })
        .from(bookings)
        .where(
          and(
            eq(bookings.id, bookingId),
            sql`((${bookings.driverId} = ${reporterId} and ${bookings.requesterId} = ${reportedId}) or (${bookings.driverId} = ${reportedId} and ${bookings.requesterId} = ${reporterId}))`,
          ),
        );
      if (!shared) throw notFound(SHARED_BOOKING_NOT_FOUND);
    }
    const [row] = await db
      .insert(reports)
      .values({ reporterId, reportedId, bookingId, reviewId, reason: input.reason, details: input.details })
      .returning({ id: reports.id });
    if (!row) throw new Error('insert returned no row');
    return row;
  }

  return { report };
}

export type ReportService = ReturnType<typeof createReportService>;
