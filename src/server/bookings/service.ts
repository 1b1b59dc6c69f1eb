import { desc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { MARKETPLACE_ERRORS, type Booking, type Page } from '../../shared/marketplace';
import { DomainError } from '../core/domain-error';
import type { BookingStatus } from '../../shared/statuses';
import { isUniqueViolation } from '../db/errors';
import type { Db } from '../db/client';
import { bookings, deliveryRequests, profiles } from '../db/schema';
import { cursorInstant, cursorUuid, keysetList, type PageRequest } from '../db/keyset';

const bookingCursor = z.tuple([cursorInstant, cursorUuid]);

function refusal(code: keyof typeof MARKETPLACE_ERRORS) {
  return new DomainError(code, MARKETPLACE_ERRORS[code].message);
}

interface BookingRow {
  id: string;
  requestId: string;
  status: string;
  createdAt: Date;
  title: string;
  pickupLocation: string;
  deliveryLocation: string;
  requesterName: string;
}

function toBooking(row: BookingRow): Booking {
  return {
    id: row.id,
    request_id: row.requestId,
    // The column's CHECK is built from the same list (src/shared/statuses.ts), so no other value can be stored.
    status: row.status as BookingStatus,
    created_at: row.createdAt.toISOString(),
    request: {
      title: row.title,
      pickup_location: row.pickupLocation,
      delivery_location: row.deliveryLocation,
      requester_name: row.requesterName,
    },
  };
}

export function createBookingService(db: Db) {
  /**
   * Accept a request as the given driver, in one transaction: the request is re-read with a share lock, so a
   * concurrent delete (which updates the row) waits for this accept or makes it see 'deleted'. Several drivers
   * may hold the share lock at once; the unique (request, driver) index settles a driver accepting twice.
   * The request stays 'open' (docs/decisions/006-accept-keeps-request-open.md).
   */
  async function accept(driverId: string, requestId: string): Promise<Booking> {
    try {
      return await db.transaction(async (tx) => {
        const [request] = await tx
          .select({
            userId: deliveryRequests.userId,
            status: deliveryRequests.status,
            title: deliveryRequests.title,
            pickupLocation: deliveryRequests.pickupLocation,
            deliveryLocation: deliveryRequests.deliveryLocation,
            requesterName: profiles.fullName,
          })
          .from(deliveryRequests)
          .innerJoin(profiles, eq(profiles.userId, deliveryRequests.userId))
          .where(eq(deliveryRequests.id, requestId))
          .for('share', { of: deliveryRequests });
        if (!request || request.status !== 'open') throw refusal('request_unavailable');
        if (request.userId === driverId) throw refusal('own_request');
        const [booking] = await tx
          .insert(bookings)
          .values({ requestId, driverId, status: 'pending' })
          .returning({ id: bookings.id, status: bookings.status, createdAt: bookings.createdAt });
        if (!booking) throw new Error('insert returned no row');
        return toBooking({ ...request, ...booking, requestId });
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw refusal('already_accepted');
      throw err;
    }
  }

  const mine = keysetList({
    name: 'bookings_mine',
    from: () =>
      db
        .select({
          id: bookings.id,
          requestId: bookings.requestId,
          status: bookings.status,
          createdAt: bookings.createdAt,
          title: deliveryRequests.title,
          pickupLocation: deliveryRequests.pickupLocation,
          deliveryLocation: deliveryRequests.deliveryLocation,
          requesterName: profiles.fullName,
        })
        .from(bookings)
        .innerJoin(deliveryRequests, eq(deliveryRequests.id, bookings.requestId))
        .innerJoin(profiles, eq(profiles.userId, deliveryRequests.userId))
        .$dynamic(),
    filter: sql`${bookings.driverId} = ${sql.placeholder('driverId')}`,
    after: sql`(${bookings.createdAt}, ${bookings.id}) < (${sql.placeholder('at')}::timestamptz, ${sql.placeholder('id')}::uuid)`,
    orderBy: [desc(bookings.createdAt), desc(bookings.id)],
    cursor: bookingCursor,
    bind: ([at, id]) => ({ at, id }),
    sortKey: (r) => [r.createdAt.toISOString(), r.id],
  });

  /** Bookings where the user is the driver, newest first, with the request and its requester. */
  async function listMine(driverId: string, page: PageRequest): Promise<Page<Booking>> {
    return mine({ driverId }, page, toBooking);
  }

  return { accept, listMine };
}

export type BookingService = ReturnType<typeof createBookingService>;
