import { desc, eq, sql } from 'drizzle-orm';
import type { DisputeDecision, DisputeKind, DisputeReason, DisputeState, DisputeView } from '../../shared/disputes';
import type { BookingRole } from '../../shared/lifecycle';
import type { Db } from '../db/client';
import { disputePhotos, disputeResponses, disputes, profiles } from '../db/schema';

/** Where a dispute photo is served (to the booking's two people and moderators only). */
export const disputePhotoPath = (disputeId: string, photoId: string) => `/api/disputes/${disputeId}/photos/${photoId}`;

const iso = (column: unknown) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** A dispute's photos by one author, in their order, as [{ id }] (JSON inside the dispute's own query). */
const photosOf = (author: unknown) => sql`coalesce((
  select json_agg(json_build_object('id', ${disputePhotos.id}) order by ${disputePhotos.position})
  from ${disputePhotos}
  where ${disputePhotos.disputeId} = ${disputes.id} and ${disputePhotos.authorId} = ${author}
), '[]'::json)`;

export const disputeColumns = {
  id: disputes.id,
  bookingId: disputes.bookingId,
  paymentId: disputes.paymentId,
  kind: disputes.kind,
  state: disputes.state,
  reason: disputes.reason,
  details: disputes.details,
  itemValueCents: disputes.itemValueCents,
  claimCapCents: disputes.claimCapCents,
  createdAt: sql<string>`${iso(disputes.createdAt)}`,
  reporterId: disputes.reporterId,
  reporterRole: disputes.reporterRole,
  reporterName: sql<string>`(select ${profiles.fullName} from ${profiles} where ${profiles.userId} = ${disputes.reporterId})`,
  photos: sql<{ id: string }[]>`${photosOf(disputes.reporterId)}`,
  response: sql<{
    author_id: string;
    author_name: string;
    details: string;
    created_at: string;
    photos: { id: string }[];
  } | null>`(
    select json_build_object(
      'author_id', ${disputeResponses.authorId},
      'author_name', (select ${profiles.fullName} from ${profiles} where ${profiles.userId} = ${disputeResponses.authorId}),
      'details', ${disputeResponses.details},
      'created_at', ${iso(disputeResponses.createdAt)},
      'photos', ${photosOf(disputeResponses.authorId)})
    from ${disputeResponses} where ${disputeResponses.disputeId} = ${disputes.id})`,
  decision: disputes.decision,
  note: disputes.note,
  refundCents: disputes.refundCents,
  releasedCents: disputes.releasedCents,
  approvedCents: disputes.approvedCents,
  paidAt: disputes.paidAt,
  decidedBy: disputes.decidedBy,
  decidedAt: disputes.decidedAt,
};

/** Disputes with every column the views read (filter, order and join on the result). */
export const selectDisputes = (db: Db) => db.select(disputeColumns).from(disputes).$dynamic();
export type DisputeRow = Awaited<ReturnType<typeof selectDisputes>>[number];

/** The row as its people (and moderators) read it; `viewerId` decides whether they may add the response. */
export function toDisputeView(row: DisputeRow, viewerId: string | null): DisputeView {
  const photo = (p: { id: string }) => ({ id: p.id, url: disputePhotoPath(row.id, p.id) });
  const decision = row.decision as DisputeDecision | null;
  return {
    id: row.id,
    kind: row.kind as DisputeKind,
    state: row.state as DisputeState,
    reason: row.reason as DisputeReason,
    details: row.details,
    item_value_cents: row.itemValueCents,
    created_at: row.createdAt,
    reporter: {
      id: row.reporterId,
      full_name: row.reporterName ?? 'Deleted user',
      role: row.reporterRole as BookingRole,
    },
    photos: row.photos.map(photo),
    response: row.response
      ? {
          author: { id: row.response.author_id, full_name: row.response.author_name ?? 'Deleted user' },
          details: row.response.details,
          created_at: row.response.created_at,
          photos: row.response.photos.map(photo),
        }
      : null,
    decision:
      decision && row.note !== null && row.decidedAt
        ? {
            decision,
            note: row.note,
            refund_cents: row.refundCents,
            released_cents: row.releasedCents,
            approved_cents: row.approvedCents,
            waiting_for_funds: decision === 'approve' && row.paidAt === null,
            decided_at: row.decidedAt.toISOString(),
          }
        : null,
    can_respond: viewerId !== null && row.state === 'open' && row.response === null && viewerId !== row.reporterId,
  };
}

/** The booking's latest dispute as one of its two people sees it (the caller has checked they are). */
export async function latestDispute(db: Db, bookingId: string, viewerId: string): Promise<DisputeView | null> {
  const [row] = await selectDisputes(db)
    .where(eq(disputes.bookingId, bookingId))
    .orderBy(desc(disputes.createdAt))
    .limit(1);
  return row ? toDisputeView(row, viewerId) : null;
}
