import { aliasedTable, and, asc, desc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Page } from '../../shared/marketplace';
import { MODERATION_ERRORS, type AdminReport, type ReportReason, type SuspendedAccount } from '../../shared/moderation';
import { DomainError, notFound } from '../core/domain-error';
import type { Db } from '../db/client';
import { cursorInstant, cursorUuid, keysetList, type PageRequest } from '../db/keyset';
import { bookings, deliveryRequests, moderationActions, profiles, reports, reviews, users } from '../db/schema';

export const REPORT_NOT_FOUND = 'Report not found.';
export const NOT_SUSPENDED = 'This account is not suspended.';

type ReportStatus = AdminReport['status'];

const reporterProfile = aliasedTable(profiles, 'reporter_profile');
const reportedProfile = aliasedTable(profiles, 'reported_profile');
const reportedUser = aliasedTable(users, 'reported_user');
const resolverProfile = aliasedTable(profiles, 'resolver_profile');

const columns = {
  id: reports.id,
  reason: reports.reason,
  details: reports.details,
  status: reports.status,
  createdAt: reports.createdAt,
  resolvedAt: reports.resolvedAt,
  reporterId: reports.reporterId,
  reporterName: reporterProfile.fullName,
  reportedId: reports.reportedId,
  reportedName: reportedProfile.fullName,
  reportedSuspendedAt: reportedUser.suspendedAt,
  bookingId: bookings.id,
  requestTitle: deliveryRequests.title,
  reviewId: reviews.id,
  reviewRating: reviews.rating,
  reviewComment: reviews.comment,
  resolvedBy: reports.resolvedBy,
  resolverName: resolverProfile.fullName,
};

interface ReportRow {
  id: string;
  reason: string;
  details: string;
  status: string;
  createdAt: Date;
  resolvedAt: Date | null;
  reporterId: string;
  reporterName: string;
  reportedId: string;
  reportedName: string;
  reportedSuspendedAt: Date | null;
  bookingId: string | null;
  requestTitle: string | null;
  reviewId: string | null;
  reviewRating: number | null;
  reviewComment: string | null;
  resolvedBy: string | null;
  resolverName: string | null;
}

function toAdminReport(row: ReportRow): AdminReport {
  return {
    id: row.id,
    // The columns' CHECKs are built from the shared lists (src/shared/moderation.ts).
    reason: row.reason as ReportReason,
    details: row.details,
    status: row.status as ReportStatus,
    created_at: row.createdAt.toISOString(),
    reporter: { id: row.reporterId, full_name: row.reporterName },
    reported: { id: row.reportedId, full_name: row.reportedName, suspended: row.reportedSuspendedAt !== null },
    booking: row.bookingId && row.requestTitle !== null ? { id: row.bookingId, request_title: row.requestTitle } : null,
    review:
      row.reviewId && row.reviewRating !== null
        ? { id: row.reviewId, rating: row.reviewRating, comment: row.reviewComment }
        : null,
    resolved_at: row.resolvedAt?.toISOString() ?? null,
    resolved_by:
      row.resolvedBy && row.resolverName !== null ? { id: row.resolvedBy, full_name: row.resolverName } : null,
  };
}

const reportCursor = z.tuple([cursorInstant, cursorUuid]);

const alreadyResolved = () =>
  new DomainError('report_already_resolved', MODERATION_ERRORS.report_already_resolved.message);

/**
 * The moderators' side (admins only; the routes answer everyone else 404). Every action is one transaction that
 * also appends its moderation_actions row. `endSessions` signs a user out on every instance (the auth service's
 * revokeUserSessions, wired by app.ts); it runs after the suspension commits.
 */
export function createAdminService(db: Db, endSessions: (userId: string) => Promise<void>) {
  const from = () =>
    db
      .select(columns)
      .from(reports)
      .innerJoin(reporterProfile, eq(reporterProfile.userId, reports.reporterId))
      .innerJoin(reportedProfile, eq(reportedProfile.userId, reports.reportedId))
      .innerJoin(reportedUser, eq(reportedUser.id, reports.reportedId))
      .leftJoin(bookings, eq(bookings.id, reports.bookingId))
      .leftJoin(deliveryRequests, eq(deliveryRequests.id, bookings.requestId))
      .leftJoin(reviews, eq(reviews.id, reports.reviewId))
      .leftJoin(resolverProfile, eq(resolverProfile.userId, reports.resolvedBy))
      .$dynamic();
  const common = {
    from,
    cursor: reportCursor,
    bind: ([at, id]: [string, string]) => ({ at, id }),
    sortKey: (r: ReportRow) => [r.createdAt.toISOString(), r.id] as const,
  };
  // Both over reports_status_created_idx (status, created_at, id): the queue forwards, the archive backwards.
  const open = keysetList({
    name: 'admin_reports_open',
    ...common,
    filter: sql`${reports.status} = 'open'`,
    after: sql`(${reports.createdAt}, ${reports.id}) > (${sql.placeholder('at')}::timestamptz, ${sql.placeholder('id')}::uuid)`,
    orderBy: [asc(reports.createdAt), asc(reports.id)],
  });
  const resolved = keysetList({
    name: 'admin_reports_resolved',
    ...common,
    filter: sql`${reports.status} = ${sql.placeholder('status')}`,
    after: sql`(${reports.createdAt}, ${reports.id}) < (${sql.placeholder('at')}::timestamptz, ${sql.placeholder('id')}::uuid)`,
    orderBy: [desc(reports.createdAt), desc(reports.id)],
  });

  /** Open reports oldest first (the queue); dismissed or actioned ones newest first. */
  async function list(status: ReportStatus, page: PageRequest): Promise<Page<AdminReport>> {
    return status === 'open' ? open({}, page, toAdminReport) : resolved({ status }, page, toAdminReport);
  }

  async function read(id: string): Promise<AdminReport> {
    const [row] = await from().where(eq(reports.id, id));
    if (!row) throw notFound(REPORT_NOT_FOUND);
    return toAdminReport(row);
  }

  /** An open report -> 'dismissed'. A guarded update: of two moderators, the second gets 409. */
  async function dismiss(adminId: string, id: string): Promise<AdminReport> {
    await db.transaction(async (tx) => {
      const [done] = await tx
        .update(reports)
        .set({ status: 'dismissed', resolvedAt: sql`now()`, resolvedBy: adminId })
        .where(and(eq(reports.id, id), sql`${reports.status} = 'open'`))
        .returning({ reportedId: reports.reportedId });
      if (!done) {
        const [exists] = await tx.select({ id: reports.id }).from(reports).where(eq(reports.id, id));
        throw exists ? alreadyResolved() : notFound(REPORT_NOT_FOUND);
      }
      await tx
        .insert(moderationActions)
        .values({ adminId, action: 'dismiss_report', reportId: id, targetUserId: done.reportedId });
    });
    return read(id);
  }

  /**
   * Suspends the person an open report is about: users.suspended_at (kept if already set), this report and every
   * other open one about them 'actioned', one moderation_actions row; then their sessions end on every instance.
   * The users row is locked (by its update) before any report row, so two suspensions of one person, or a
   * suspension and a dismissal, wait for each other rather than deadlock; the report is re-checked under it.
   */
  async function suspend(adminId: string, id: string): Promise<AdminReport> {
    const userId = await db.transaction(async (tx) => {
      const [report] = await tx
        .select({ reportedId: reports.reportedId, status: reports.status })
        .from(reports)
        .where(eq(reports.id, id));
      if (!report) throw notFound(REPORT_NOT_FOUND);
      if (report.status !== 'open') throw alreadyResolved();
      await tx
        .update(users)
        .set({ suspendedAt: sql`coalesce(${users.suspendedAt}, now())` })
        .where(eq(users.id, report.reportedId));
      const actioned = await tx
        .update(reports)
        .set({ status: 'actioned', resolvedAt: sql`now()`, resolvedBy: adminId })
        .where(and(eq(reports.reportedId, report.reportedId), sql`${reports.status} = 'open'`))
        .returning({ id: reports.id });
      // Resolved by someone else between the read and the lock: nothing of this transaction stays.
      if (!actioned.some((r) => r.id === id)) throw alreadyResolved();
      await tx
        .insert(moderationActions)
        .values({ adminId, action: 'suspend_account', reportId: id, targetUserId: report.reportedId });
      return report.reportedId;
    });
    // The session lookup already refuses a suspended user's sessions; this deletes them and evicts every
    // instance's cached copy at once.
    await endSessions(userId);
    return read(id);
  }

  // Few rows: users_suspended_idx holds only the suspended accounts; a deleted account is nobody's to lift.
  const suspended = keysetList({
    name: 'admin_suspensions',
    from: () =>
      db
        .select({ id: users.id, fullName: profiles.fullName, suspendedAt: users.suspendedAt })
        .from(users)
        .innerJoin(profiles, eq(profiles.userId, users.id))
        .$dynamic(),
    filter: sql`${users.suspendedAt} is not null and ${users.deletedAt} is null`,
    after: sql`(${users.suspendedAt}, ${users.id}) < (${sql.placeholder('at')}::timestamptz, ${sql.placeholder('id')}::uuid)`,
    orderBy: [desc(users.suspendedAt), desc(users.id)],
    cursor: reportCursor,
    bind: ([at, id]: [string, string]) => ({ at, id }),
    sortKey: (r: { id: string; suspendedAt: Date | null }) => [r.suspendedAt!.toISOString(), r.id] as const,
  });

  /** Suspended accounts, most recently suspended first. */
  async function listSuspended(page: PageRequest): Promise<Page<SuspendedAccount>> {
    return suspended({}, page, (row) => ({
      user: { id: row.id, full_name: row.fullName },
      suspended_at: row.suspendedAt!.toISOString(),
    }));
  }

  /**
   * Lifts a suspension: the person can sign in again and their listings return to Browse (the users trigger bumps
   * the browse versions, migration 0018); one moderation_actions row. Their reports stay as they were resolved.
   * Not suspended (never, lifted already, unknown or deleted): 404, and nothing changes.
   */
  async function liftSuspension(adminId: string, userId: string): Promise<void> {
    await db.transaction(async (tx) => {
      const [lifted] = await tx
        .update(users)
        .set({ suspendedAt: null })
        .where(and(eq(users.id, userId), sql`${users.suspendedAt} is not null`, sql`${users.deletedAt} is null`))
        .returning({ id: users.id });
      if (!lifted) throw notFound(NOT_SUSPENDED);
      await tx.insert(moderationActions).values({ adminId, action: 'lift_suspension', targetUserId: userId });
    });
  }

  return { list, dismiss, suspend, listSuspended, liftSuspension };
}

export type AdminService = ReturnType<typeof createAdminService>;
