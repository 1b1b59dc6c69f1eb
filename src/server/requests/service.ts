import { and, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { DeliveryRequest, Page } from '../../shared/marketplace';
import { centsToDecimal, toCents } from '../../shared/money';
import type { RequestStatus } from '../../shared/statuses';
import type { Db } from '../db/client';
import { bookings, deliveryRequests, profiles } from '../db/schema';
import { cursorInstant, cursorUuid, keysetList, type PageRequest } from '../db/keyset';

interface RequestFields {
  title: string;
  description: string;
  pickup_location: string;
  delivery_location: string;
  needed_by_date: string | null;
  /** Decimal string with at most 2 places, already range-checked by the schema. */
  compensation: string | null;
}

const requestCursor = z.tuple([cursorInstant, cursorUuid]);

const columns = {
  id: deliveryRequests.id,
  userId: deliveryRequests.userId,
  title: deliveryRequests.title,
  description: deliveryRequests.description,
  pickupLocation: deliveryRequests.pickupLocation,
  deliveryLocation: deliveryRequests.deliveryLocation,
  neededByDate: deliveryRequests.neededByDate,
  compensationCents: deliveryRequests.compensationCents,
  status: deliveryRequests.status,
  createdAt: deliveryRequests.createdAt,
  requesterName: profiles.fullName,
};
interface RequestRow {
  id: string;
  userId: string;
  title: string;
  description: string;
  pickupLocation: string;
  deliveryLocation: string;
  neededByDate: string | null;
  compensationCents: number | null;
  status: string;
  createdAt: Date;
  requesterName: string;
  acceptedByMe?: boolean;
}

function toRequest(row: RequestRow, viewerId: string): DeliveryRequest {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    pickup_location: row.pickupLocation,
    delivery_location: row.deliveryLocation,
    needed_by_date: row.neededByDate,
    compensation: row.compensationCents === null ? null : centsToDecimal(row.compensationCents),
    // The column's CHECK is built from the same list (src/shared/statuses.ts), so no other value can be stored.
    status: row.status as RequestStatus,
    created_at: row.createdAt.toISOString(),
    requester_name: row.requesterName,
    is_own: row.userId === viewerId,
    accepted_by_me: row.acceptedByMe ?? false,
  };
}

const sortKey = (row: RequestRow) => [row.createdAt.toISOString(), row.id] as const;

/** Rows older than the cursor in (created_at, id) descending order. */
const beforeCursor = sql`(${deliveryRequests.createdAt}, ${deliveryRequests.id}) < (${sql.placeholder('at')}::timestamptz, ${sql.placeholder('id')}::uuid)`;

export function createRequestService(db: Db) {
  const newestFirst = {
    after: beforeCursor,
    orderBy: [desc(deliveryRequests.createdAt), desc(deliveryRequests.id)],
    cursor: requestCursor,
    bind: ([at, id]: [string, string]) => ({ at, id }),
    sortKey,
  };
  // Soft-deleted requests are gone for their owner too (docs/decisions/005-request-soft-delete.md).
  const mine = keysetList({
    name: 'requests_mine',
    from: () =>
      db
        .select(columns)
        .from(deliveryRequests)
        .innerJoin(profiles, eq(profiles.userId, deliveryRequests.userId))
        .$dynamic(),
    filter: sql`${deliveryRequests.userId} = ${sql.placeholder('userId')} and ${deliveryRequests.status} <> 'deleted'`,
    ...newestFirst,
  });
  // One probe of the unique (request_id, driver_id) index per row on the page.
  const acceptedByMe = sql<boolean>`exists (select 1 from ${bookings} where ${bookings.requestId} = ${deliveryRequests.id} and ${bookings.driverId} = ${sql.placeholder('viewerId')})`;
  const open = keysetList({
    name: 'requests_browse',
    from: () =>
      db
        .select({ ...columns, acceptedByMe })
        .from(deliveryRequests)
        .innerJoin(profiles, eq(profiles.userId, deliveryRequests.userId))
        .$dynamic(),
    filter: sql`${deliveryRequests.status} = 'open'`,
    ...newestFirst,
  });

  /** My requests, newest first. */
  async function listMine(userId: string, page: PageRequest): Promise<Page<DeliveryRequest>> {
    return mine({ userId }, page, (r) => toRequest(r, userId));
  }

  async function browse(viewerId: string, page: PageRequest): Promise<Page<DeliveryRequest>> {
    return open({ viewerId }, page, (r) => toRequest(r, viewerId));
  }

  async function create(user: { id: string; full_name: string }, input: RequestFields): Promise<DeliveryRequest> {
    const [row] = await db
      .insert(deliveryRequests)
      .values({
        userId: user.id,
        title: input.title,
        description: input.description,
        pickupLocation: input.pickup_location,
        deliveryLocation: input.delivery_location,
        neededByDate: input.needed_by_date,
        compensationCents: input.compensation === null ? null : toCents(input.compensation),
      })
      .returning();
    if (!row) throw new Error('insert returned no row');
    return toRequest({ ...row, requesterName: user.full_name }, user.id);
  }

  /**
   * Soft delete (docs/decisions/005-request-soft-delete.md): the request leaves every list, and the bookings
   * drivers made for it stay visible to them as 'cancelled'. One transaction, so a driver never sees one half.
   * Returns false when the user has no such request (unknown, another user's, or already deleted).
   */
  async function remove(userId: string, id: string): Promise<boolean> {
    return db.transaction(async (tx) => {
      const deleted = await tx
        .update(deliveryRequests)
        .set({ status: 'deleted' })
        .where(
          and(eq(deliveryRequests.id, id), eq(deliveryRequests.userId, userId), ne(deliveryRequests.status, 'deleted')),
        )
        .returning({ id: deliveryRequests.id });
      if (!deleted.length) return false;
      // Completed bookings keep their history; everything still in progress is cancelled.
      await tx
        .update(bookings)
        .set({ status: 'cancelled' })
        .where(and(eq(bookings.requestId, id), inArray(bookings.status, ['pending', 'confirmed'])));
      return true;
    });
  }

  return { listMine, browse, create, remove };
}

export type RequestService = ReturnType<typeof createRequestService>;
