import { aliasedTable, desc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { User } from '../../shared/auth';
import type { BookingRole } from '../../shared/lifecycle';
import { MESSAGING_ERRORS } from '../../shared/messages';
import { MARKETPLACE_ERRORS, type Booking, type Page } from '../../shared/marketplace';
import type { BookingStatus } from '../../shared/statuses';
import { DomainError } from '../core/domain-error';
import type { Db } from '../db/client';
import { isUniqueViolation } from '../db/errors';
import { Outbox } from '../events';
import { announce } from './transitions';
import { cursorInstant, cursorUuid, keysetList, type PageRequest } from '../db/keyset';
import type { PageJson } from '../core/page-json';
import { myListCache } from '../listings';
import { bookingEvents, bookings, deliveryRequests, profiles, users } from '../db/schema';
import { isBlockedBetween } from '../blocks';
import { preparedStatement } from '../db/prepared';
import { rowsOf } from '../db/result-rows';
import { notify } from '../notifications';

const bookingCursor = z.tuple([cursorInstant, cursorUuid]);

const driverProfile = aliasedTable(profiles, 'driver_profile');
const requesterProfile = aliasedTable(profiles, 'requester_profile');

function refusal(code: keyof typeof MARKETPLACE_ERRORS) {
  return new DomainError(code, MARKETPLACE_ERRORS[code].message);
}

interface BookingRow {
  id: string;
  requestId: string;
  status: string;
  createdAt: Date;
  driverName: string;
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
    driver_name: row.driverName,
    request: {
      title: row.title,
      pickup_location: row.pickupLocation,
      delivery_location: row.deliveryLocation,
      requester_name: row.requesterName,
    },
  };
}

interface AcceptedRequest {
  userId: string;
  status: string;
  title: string;
  pickupLocation: string;
  deliveryLocation: string;
  requesterName: string;
  /** Set when suspended (the raw column text: only whether it is set matters here). */
  suspendedAt: string | null;
}

/** Accept's statements, prepared once per connection (db/prepared.ts): the request, read with its share locks. */
const requestForOffer = preparedStatement(
  'accept_request',
  () => sql`select ${deliveryRequests.userId} as "userId", ${deliveryRequests.status} as "status",
      ${deliveryRequests.title} as "title", ${deliveryRequests.pickupLocation} as "pickupLocation",
      ${deliveryRequests.deliveryLocation} as "deliveryLocation", ${profiles.fullName} as "requesterName",
      ${users.suspendedAt} as "suspendedAt"
    from ${deliveryRequests}
    join ${profiles} on ${profiles.userId} = ${deliveryRequests.userId}
    join ${users} on ${users.id} = ${deliveryRequests.userId}
    where ${deliveryRequests.id} = ${sql.placeholder('requestId')}
    for share of ${deliveryRequests}, ${users}`,
);

/** The pending booking and its 'offered' event, in one statement. */
const insertOffer = preparedStatement(
  'accept_insert',
  () => sql`with booking as (
      insert into ${bookings} (request_id, driver_id, requester_id, status)
      values (${sql.placeholder('requestId')}, ${sql.placeholder('driverId')}, ${sql.placeholder('requesterId')}, 'pending')
      returning id, status, created_at
    ), offered as (
      insert into ${bookingEvents} (booking_id, driver_id, requester_id, actor_id, type, from_status, to_status)
      select id, ${sql.placeholder('driverId')}, ${sql.placeholder('requesterId')}, ${sql.placeholder('driverId')},
        'offered', null, 'pending'
      from booking
    )
    select id, status, (extract(epoch from created_at) * 1000)::float8 as "createdMs" from booking`,
);

export function createBookingService(db: Db) {
  /**
   * Accept a request as the given driver, in one transaction: the request is re-read with a share lock, so a
   * concurrent delete or choose (which lock it FOR UPDATE) either waits for this accept, and then declines the new
   * offer with the others, or makes it see that the request is no longer 'open'. Several drivers may hold the share
   * lock at once; the partial unique (request, driver) index over live bookings settles a driver accepting twice.
   * The request stays 'open' (docs/decisions/006-accept-keeps-request-open.md) and the timeline starts with
   * 'offered'.
   */
  async function accept(driver: Pick<User, 'id' | 'full_name'>, requestId: string): Promise<Booking> {
    try {
      return await db.transaction(async (tx) => {
        // The requester's users row too: a block (moderation) and a suspension lock it for update, so either
        // commits before this reads it, or waits for this offer and then declines it / hides the request.
        const [request] = rowsOf<AcceptedRequest>(await requestForOffer(tx, { requestId }));
        // A suspended requester's requests have left Browse: to a driver they are simply no longer available.
        if (!request || request.status !== 'open' || request.suspendedAt) throw refusal('request_unavailable');
        if (request.userId === driver.id) throw refusal('own_request');
        // After the lock, so a block committed while this waited is seen (each statement reads afresh).
        if (await isBlockedBetween(tx, driver.id, request.userId))
          throw new DomainError('blocked', MESSAGING_ERRORS.blocked.message);
        const [booking] = rowsOf<{ id: string; status: string; createdMs: number | string }>(
          await insertOffer(tx, { requestId, driverId: driver.id, requesterId: request.userId }),
        );
        if (!booking) throw new Error('insert returned no row');
        // The requester is told (in the app, and by e-mail through the outbox's job), then, as the last
        // statement, the driver's other tabs and the requester hear of the new offer live.
        const out = new Outbox();
        await notify(tx, out, [
          { userId: request.userId, type: 'offer_received', actorId: driver.id, bookingId: booking.id, requestId },
        ]);
        announce(
          out,
          { id: booking.id, driverId: driver.id, requesterId: request.userId, requestId },
          'pending',
          'offered',
        );
        await out.flush(tx);
        return toBooking({
          ...request,
          ...booking,
          createdAt: new Date(Number(booking.createdMs)),
          requestId,
          driverName: driver.full_name,
        });
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw refusal('already_accepted');
      throw err;
    }
  }

  const listOf = (name: string, party: typeof bookings.driverId | typeof bookings.requesterId) =>
    keysetList({
      name,
      from: () =>
        db
          .select({
            id: bookings.id,
            requestId: bookings.requestId,
            status: bookings.status,
            createdAt: bookings.createdAt,
            driverName: driverProfile.fullName,
            title: deliveryRequests.title,
            pickupLocation: deliveryRequests.pickupLocation,
            deliveryLocation: deliveryRequests.deliveryLocation,
            requesterName: requesterProfile.fullName,
          })
          .from(bookings)
          .innerJoin(deliveryRequests, eq(deliveryRequests.id, bookings.requestId))
          .innerJoin(driverProfile, eq(driverProfile.userId, bookings.driverId))
          .innerJoin(requesterProfile, eq(requesterProfile.userId, bookings.requesterId))
          .$dynamic(),
      filter: sql`${party} = ${sql.placeholder('userId')}`,
      after: sql`(${bookings.createdAt}, ${bookings.id}) < (${sql.placeholder('at')}::timestamptz, ${sql.placeholder('id')}::uuid)`,
      orderBy: [desc(bookings.createdAt), desc(bookings.id)],
      cursor: bookingCursor,
      bind: ([at, id]) => ({ at, id }),
      sortKey: (r) => [r.createdAt.toISOString(), r.id],
    });
  // Each over its own (party, created_at, id) index.
  const lists: Record<BookingRole, ReturnType<typeof listOf>> = {
    driver: listOf('bookings_mine', bookings.driverId),
    requester: listOf('bookings_on_my_requests', bookings.requesterId),
  };

  /**
   * My Bookings, newest first, with the request, its requester and the driver: 'As driver' (I drive) or
   * 'As requester' (offers and bookings on my requests).
   */
  const myLists = myListCache(db);
  async function listMine(
    userId: string,
    page: PageRequest,
    role: BookingRole = 'driver',
  ): Promise<Page<Booking> | PageJson> {
    return myLists(userId, `bookings|${role}|${page.limit}|${page.cursor ?? ''}`, () =>
      lists[role]({ userId }, page, toBooking),
    );
  }

  return { accept, listMine };
}

export type BookingService = ReturnType<typeof createBookingService>;
