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
import { cursorInstant, cursorUuid, keysetList, type PageRequest } from '../db/keyset';
import type { PageJson } from '../core/page-json';
import { myListCache } from '../listings';
import { bookings, deliveryRequests, profiles } from '../db/schema';
import { preparedStatement } from '../db/prepared';
import { rowsOf } from '../db/result-rows';
import type { CountAnswer, FoldedLimits } from '../limits';

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

/**
 * What `rr_accept_offer` answers: a hit over its allowance or a refusal (nothing written but the hits), or the new
 * booking with its request's fields.
 */
type AcceptAnswer =
  | { limited: CountAnswer; refused?: undefined }
  | { refused: 'request_unavailable' | 'own_request' | 'blocked' | 'already_accepted'; limited?: undefined }
  | {
      limited?: undefined;
      refused?: undefined;
      id: string;
      status: string;
      created_at: string;
      driver_name: string;
      title: string;
      pickup_location: string;
      delivery_location: string;
      requester_name: string;
    };

/**
 * The whole accept in one statement, in autocommit (migrations 0040 and 0044): one round trip instead of nine, the
 * write throttle's hit counted first, prepared once per connection (db/prepared.ts).
 */
const acceptStatement = preparedStatement(
  'accept_offer',
  () =>
    sql`select rr_accept_offer(${sql.placeholder('requestId')}::uuid, ${sql.placeholder('driverId')}::uuid,
      ${sql.placeholder('hits')}::jsonb) as answer`,
);

export function createBookingService(db: Db) {
  /**
   * Accept a request as the given driver, in one transaction (the database function `rr_accept_offer`, migration
   * 0040): the request is re-read with a share lock, so a concurrent delete or choose (which lock it FOR UPDATE)
   * either waits for this accept, and then declines the new offer with the others, or makes it see that the request
   * is no longer 'open'. Several drivers may hold the share lock at once; the partial unique (request, driver) index
   * over live bookings settles a driver accepting twice. The request stays 'open'
   * (docs/decisions/006-accept-keeps-request-open.md) and the timeline starts with 'offered'. The requester is told
   * (in the app, and by e-mail through its job), then, as the last write, the driver's other tabs and the requester
   * hear of the new offer live. `limits` (the write throttle) are counted first, in the same statement: over them,
   * nothing else is written.
   */
  async function accept(driver: Pick<User, 'id'>, requestId: string, limits: FoldedLimits): Promise<Booking> {
    let answer: AcceptAnswer | undefined;
    try {
      [{ answer } = { answer: undefined }] = rowsOf<{ answer: AcceptAnswer }>(
        await acceptStatement(db, { requestId, driverId: driver.id, hits: limits.json }),
      );
    } catch (err) {
      if (isUniqueViolation(err)) throw refusal('already_accepted');
      throw err;
    }
    if (!answer) throw new Error('rr_accept_offer answered nothing');
    if (answer.limited) throw limits.refusal(answer.limited) ?? new Error('rr_accept_offer limited without a refusal');
    if (answer.refused === 'blocked') throw new DomainError('blocked', MESSAGING_ERRORS.blocked.message);
    if (answer.refused) throw refusal(answer.refused);
    return toBooking({
      id: answer.id,
      requestId,
      status: answer.status,
      createdAt: new Date(answer.created_at),
      driverName: answer.driver_name,
      title: answer.title,
      pickupLocation: answer.pickup_location,
      deliveryLocation: answer.delivery_location,
      requesterName: answer.requester_name,
    });
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
