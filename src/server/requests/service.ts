import { and, asc, desc, eq, getTableColumns, gte, isNull, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { LIFECYCLE_ERRORS, type RequestDetail } from '../../shared/lifecycle';
import type { BrowseQuery, DeliveryRequest, Page } from '../../shared/marketplace';
import { centsToDecimal, quoteFor, toCents } from '../../shared/money';
import { TEST_CHECKOUT, type PaymentCheckout } from '../../shared/payments';
import { DEFAULT_WITHIN_MILES } from '../../shared/places';
import type { RequestStatus } from '../../shared/statuses';
import { declinePendingOffers } from '../bookings';
import { DomainError, notFound } from '../core/domain-error';
import { Outbox } from '../events';
import { notify } from '../notifications';
import type { Db } from '../db/client';
import { bookings, deliveryRequests, profiles, requestHourKey, users } from '../db/schema';
import { blockedWith } from '../blocks';
import { ratingFrom } from '../../shared/rating';
import { ratingOf } from '../reviews';
import { cursorFlag, cursorInstant, cursorUuid, keysetList, type PageRequest } from '../db/keyset';
import { decodeCursor, toPage } from '../db/cursor';
import type { PageJson } from '../core/page-json';
import { createListCache, myListCache } from '../listings';
import {
  cursorMiles,
  nearestPage,
  pointOf,
  roundMiles,
  textMatches,
  verifiedOwner,
  visibleTo,
  type PlaceService,
} from '../places';
import { creditBalance } from '../payments';
import { ambassadorOf, feeWaiverOf } from '../plans';

export const REQUEST_NOT_FOUND = 'Request not found.';

interface RequestFields {
  title: string;
  description: string;
  pickup_location: string;
  delivery_location: string;
  needed_by_date: string | null;
  /** Decimal string with at most 2 places, already range-checked by the schema. */
  compensation: string | null;
  pickup_place_id: number | null;
  delivery_place_id: number | null;
}

const requestCursor = z.tuple([cursorInstant, cursorUuid]);
/** Browse: a priority listing ('1') or not ('0'), the instant, the id; the hour is the instant's (issue 38). */
const browseCursor = z.tuple([cursorFlag, cursorInstant, cursorUuid]);

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
  priority: deliveryRequests.priority,
  createdAt: deliveryRequests.createdAt,
  pickupPlaceId: deliveryRequests.pickupPlaceId,
  pickupLat: deliveryRequests.pickupLat,
  pickupLon: deliveryRequests.pickupLon,
  deliveryPlaceId: deliveryRequests.deliveryPlaceId,
  deliveryLat: deliveryRequests.deliveryLat,
  deliveryLon: deliveryRequests.deliveryLon,
  requesterName: profiles.fullName,
  ratingCount: profiles.ratingCount,
  ratingSum: profiles.ratingSum,
  ownerVerified: profiles.verified,
  ownerAmbassador: ambassadorOf(profiles.plan),
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
  /** The requester has a paid plan (issue 38): Browse lists it first within its hour, with the 'Priority' label. */
  priority: boolean;
  createdAt: Date;
  pickupPlaceId: number | null;
  pickupLat: number | null;
  pickupLon: number | null;
  deliveryPlaceId: number | null;
  deliveryLat: number | null;
  deliveryLon: number | null;
  requesterName: string;
  ratingCount: number;
  ratingSum: number;
  ownerVerified: boolean;
  /** Community's 'Ambassador' badge beside the name (issue 38). */
  ownerAmbassador: boolean;
  acceptedByMe?: boolean;
  offerCount?: number;
  /** Browse with 'Near' only. */
  distance?: number;
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
    requester_id: row.userId,
    requester_rating: ratingFrom(row.ratingCount, row.ratingSum),
    requester_verified: row.ownerVerified,
    requester_ambassador: row.ownerAmbassador,
    priority: row.priority,
    is_own: row.userId === viewerId,
    accepted_by_me: row.acceptedByMe ?? false,
    ...(row.offerCount === undefined ? {} : { offer_count: row.offerCount }),
    pickup_point: pointOf(row.pickupPlaceId, row.pickupLat, row.pickupLon),
    delivery_point: pointOf(row.deliveryPlaceId, row.deliveryLat, row.deliveryLon),
    ...(row.distance === undefined ? {} : { distance_miles: roundMiles(row.distance) }),
  };
}

const fields = (row: RequestRow) => {
  const { id, title, description, pickup_location, delivery_location, needed_by_date, compensation, status } =
    toRequest(row, row.userId);
  return { id, title, description, pickup_location, delivery_location, needed_by_date, compensation, status };
};

const sortKey = (row: RequestRow) => [row.createdAt.toISOString(), row.id] as const;

/** Rows older than the cursor in (created_at, id) descending order. */
const beforeKey = (at: unknown, id: unknown) =>
  sql`(${deliveryRequests.createdAt}, ${deliveryRequests.id}) < (${at}::timestamptz, ${id}::uuid)`;
const beforeCursor = beforeKey(sql.placeholder('at'), sql.placeholder('id'));

/**
 * Browse (issue 38, docs/decisions/034-priority-listing.md): newest hour of posting (UTC) first, a Plus or Community
 * requester's requests first within it, then newest first. All four keys descend: one row comparison over
 * delivery_requests_open_created_idx, scanned backwards. The cursor's hour is its instant's.
 */
const browseSortKey = (row: RequestRow) => [row.priority ? '1' : '0', row.createdAt.toISOString(), row.id] as const;
const browseOrder = [
  desc(requestHourKey(deliveryRequests)),
  desc(deliveryRequests.priority),
  desc(deliveryRequests.createdAt),
  desc(deliveryRequests.id),
];
const beforeBrowseKey = (priority: unknown, at: unknown, id: unknown) =>
  sql`(${requestHourKey(deliveryRequests)}, ${deliveryRequests.priority}, ${deliveryRequests.createdAt}, ${deliveryRequests.id})
    < (${requestHourKey({ createdAt: sql`${at}::timestamptz` })}, ${priority}::boolean, ${at}::timestamptz, ${id}::uuid)`;
const beforeBrowseCursor = beforeBrowseKey(sql.placeholder('priority'), sql.placeholder('at'), sql.placeholder('id'));

/** Runs inside the transaction that creates a request, with its id (app.ts: alerts for new requests). */
export type OnRequestCreated = (tx: Db, requestId: string) => Promise<unknown>;

/**
 * Browse: open requests, not a suspended requester's, nor anyone's blocked either way with the viewer: one
 * primary-key probe of users and two of blocks per row read, on top of the same index range (bench/explain.ts).
 */
const browsable = (viewerId: unknown) =>
  sql`${deliveryRequests.status} = 'open' and ${users.suspendedAt} is null
      and not ${blockedWith(viewerId, deliveryRequests.userId)}`;

const nearCursor = z.tuple([cursorMiles, cursorUuid]);

export function createRequestService(
  db: Db,
  places: PlaceService,
  onCreated: OnRequestCreated = async () => undefined,
  /** How the pay dialog takes the card: the provider that runs (the embedded test provider unless told). */
  checkout: PaymentCheckout = TEST_CHECKOUT,
) {
  const newestFirst = {
    after: beforeCursor,
    orderBy: [desc(deliveryRequests.createdAt), desc(deliveryRequests.id)],
    cursor: requestCursor,
    bind: ([at, id]: [string, string]) => ({ at, id }),
    sortKey,
  };
  // Pending offers per request on the page: one probe of the partial (request_id, driver_id) index each. Only the
  // owner's list counts them; browse stays as cheap as it was.
  const offerCount = sql<number>`(select count(*)::int from ${bookings} where ${bookings.requestId} = ${deliveryRequests.id} and ${bookings.status} = 'pending')`;
  // Soft-deleted requests are gone for their owner too (docs/decisions/005-request-soft-delete.md).
  const mine = keysetList({
    name: 'requests_mine',
    from: () =>
      db
        .select({ ...columns, offerCount })
        .from(deliveryRequests)
        .innerJoin(profiles, eq(profiles.userId, deliveryRequests.userId))
        .$dynamic(),
    filter: sql`${deliveryRequests.userId} = ${sql.placeholder('userId')} and ${deliveryRequests.status} <> 'deleted'`,
    ...newestFirst,
  });
  // One probe of the partial unique (request_id, driver_id) index per row on the page: an offer of mine that is
  // still live. A declined or withdrawn one does not count, so that driver may offer again.
  const acceptedBy = (viewerId: unknown) =>
    sql<boolean>`exists (select 1 from ${bookings} where ${bookings.requestId} = ${deliveryRequests.id} and ${bookings.driverId} = ${viewerId} and ${bookings.status} in ('pending', 'confirmed', 'completed'))`;
  const browseFrom = <F extends Record<string, SQL>>(viewerId: unknown, extra: F) =>
    db
      .select({ ...columns, acceptedByMe: acceptedBy(viewerId), ...extra })
      .from(deliveryRequests)
      .innerJoin(users, eq(users.id, deliveryRequests.userId))
      .innerJoin(profiles, eq(profiles.userId, deliveryRequests.userId))
      .$dynamic();
  const open = keysetList({
    name: 'requests_browse',
    from: () => browseFrom(sql.placeholder('viewerId'), {}),
    filter: browsable(sql.placeholder('viewerId')),
    after: beforeBrowseCursor,
    orderBy: browseOrder,
    cursor: browseCursor,
    bind: ([priority, at, id]) => ({ priority, at, id }),
    sortKey: browseSortKey,
  });
  // Unfiltered browse pages, shared by every viewer with no block, until a write changes the list; the viewer's own
  // offers on a cached page are read with the list's version (src/server/listings).
  const cachedBrowse = createListCache<DeliveryRequest>(db, {
    list: 'requests',
    offers: true,
    idOf: (request) => request.id,
    ownerOf: (request) => request.requester_id,
    personalize: (request, viewerId, offered) => ({
      ...request,
      is_own: request.requester_id === viewerId,
      accepted_by_me: offered.has(request.id),
    }),
  });

  const myLists = myListCache(db);

  /** My requests, newest first, from memory while the user's version stands (src/server/listings). */
  async function listMine(userId: string, page: PageRequest): Promise<Page<DeliveryRequest> | PageJson> {
    return myLists(userId, `requests|${page.limit}|${page.cursor ?? ''}`, () =>
      mine({ userId }, page, (r) => toRequest(r, userId)),
    );
  }

  /**
   * Open requests, newest hour of posting first, Plus and Community requesters' requests first within an hour, then
   * newest first (issue 38). Without filters: the prepared statements. With them (docs/places.md): needed-by date
   * from/to (undated requests match any range), every 'Search' word in the title, description or locations, in the
   * same order; with 'Near' the pickup or delivery within the radius, nearest first (cursor: miles, id), where a
   * priority request keeps its label but not a place ahead of nearer ones.
   */
  async function browse(
    viewerId: string,
    query: PageRequest & Partial<BrowseQuery>,
  ): Promise<Page<DeliveryRequest> | PageJson> {
    const { near, within, from, to, q, verified } = query;
    const toItem = (r: RequestRow) => toRequest(r, viewerId);
    if (near === undefined && !from && !to && !q && !verified)
      return cachedBrowse(viewerId, `${query.limit}|${query.cursor ?? ''}`, () => open({ viewerId }, query, toItem));
    const dated = deliveryRequests.neededByDate;
    const dates = [
      from ? or(isNull(dated), gte(dated, from)) : undefined,
      to ? or(isNull(dated), lte(dated, to)) : undefined,
    ];
    const filters = and(
      browsable(viewerId),
      ...dates,
      // 'Search' looks in the title, description and both locations (search_text, migration 0015).
      textMatches(deliveryRequests.searchText, q),
      verifiedOwner(deliveryRequests.userId, verified),
    );
    const limit = query.limit + 1;
    if (near === undefined) {
      const key = decodeCursor(query.cursor, browseCursor);
      const rows = await browseFrom(viewerId, {})
        .where(and(filters, key ? beforeBrowseKey(...key) : undefined))
        .orderBy(...browseOrder)
        .limit(limit);
      return toPage(rows, query.limit, toItem, browseSortKey);
    }
    // 'Near': the page is cut on the point indexes first (nearestPage), with the owner checks as hashed sets, then
    // only its rows are read and joined.
    const center = (await places.pointsOf([near])).get(near)!;
    const page = nearestPage(
      db,
      deliveryRequests,
      deliveryRequests.id,
      [
        { lat: deliveryRequests.pickupLat, lon: deliveryRequests.pickupLon },
        { lat: deliveryRequests.deliveryLat, lon: deliveryRequests.deliveryLon },
      ],
      center,
      within ?? DEFAULT_WITHIN_MILES,
      and(
        sql`${deliveryRequests.status} = 'open'`,
        visibleTo(viewerId, deliveryRequests.userId),
        ...dates,
        textMatches(deliveryRequests.searchText, q),
        verifiedOwner(deliveryRequests.userId, verified),
      ),
      decodeCursor(query.cursor, nearCursor),
      limit,
    );
    const rows = await db
      .select({ ...columns, acceptedByMe: acceptedBy(viewerId), distance: page.distance })
      .from(page)
      .innerJoin(deliveryRequests, eq(deliveryRequests.id, page.id))
      .innerJoin(profiles, eq(profiles.userId, deliveryRequests.userId))
      .orderBy(page.distance, page.id);
    return toPage(rows, query.limit, toItem, (r) => [String(r.distance), r.id]);
  }

  /** Place ids the form sent are checked (400 PLACE_NOT_FOUND) and their coordinates copied onto the request. */
  async function create(user: { id: string; full_name: string }, input: RequestFields): Promise<DeliveryRequest> {
    const points = await places.pointsOf([input.pickup_place_id, input.delivery_place_id]);
    const pickup = input.pickup_place_id === null ? undefined : points.get(input.pickup_place_id);
    const delivery = input.delivery_place_id === null ? undefined : points.get(input.delivery_place_id);
    const [row] = await db.transaction(async (tx) => {
      const inserted = await tx
        .insert(deliveryRequests)
        .values({
          userId: user.id,
          title: input.title,
          description: input.description,
          pickupLocation: input.pickup_location,
          deliveryLocation: input.delivery_location,
          neededByDate: input.needed_by_date,
          compensationCents: input.compensation === null ? null : toCents(input.compensation),
          pickupPlaceId: pickup?.id ?? null,
          pickupLat: pickup?.lat ?? null,
          pickupLon: pickup?.lon ?? null,
          deliveryPlaceId: delivery?.id ?? null,
          deliveryLat: delivery?.lat ?? null,
          deliveryLon: delivery?.lon ?? null,
        })
        .returning({ ...getTableColumns(deliveryRequests), ...ratingOf(deliveryRequests.userId) });
      if (inserted[0]) await onCreated(tx, inserted[0].id);
      return inserted;
    });
    if (!row) throw new Error('insert returned no row');
    return toRequest({ ...row, requesterName: user.full_name }, user.id);
  }

  /**
   * The owner's view of one request (`GET /requests/:id`): its pending offers, oldest first, and the chosen
   * booking if any. Anyone else, or a deleted request, is 404.
   */
  async function detail(userId: string, id: string): Promise<RequestDetail> {
    const [row] = await db
      .select(columns)
      .from(deliveryRequests)
      .innerJoin(profiles, eq(profiles.userId, deliveryRequests.userId))
      .where(
        and(eq(deliveryRequests.id, id), eq(deliveryRequests.userId, userId), ne(deliveryRequests.status, 'deleted')),
      );
    if (!row) throw notFound(REQUEST_NOT_FOUND);
    const live = await db
      .select({
        id: bookings.id,
        status: bookings.status,
        createdAt: bookings.createdAt,
        driverId: bookings.driverId,
        driverName: profiles.fullName,
        driverVerified: profiles.verified,
        driverAmbassador: ambassadorOf(profiles.plan),
        ratingCount: profiles.ratingCount,
        ratingSum: profiles.ratingSum,
      })
      .from(bookings)
      .innerJoin(profiles, eq(profiles.userId, bookings.driverId))
      .where(and(eq(bookings.requestId, id), sql`${bookings.status} in ('pending', 'confirmed', 'completed')`))
      .orderBy(asc(bookings.createdAt), asc(bookings.id));
    const chosen = live.find((b) => b.status !== 'pending');
    return {
      ...fields(row),
      created_at: row.createdAt.toISOString(),
      offers: live
        .filter((b) => b.status === 'pending')
        .map((b) => ({
          booking_id: b.id,
          driver: {
            id: b.driverId,
            full_name: b.driverName,
            verified: b.driverVerified,
            ambassador: b.driverAmbassador,
          },
          driver_rating: ratingFrom(b.ratingCount, b.ratingSum),
          offered_at: b.createdAt.toISOString(),
        })),
      booking: chosen
        ? {
            id: chosen.id,
            status: chosen.status as 'confirmed' | 'completed',
            driver: {
              id: chosen.driverId,
              full_name: chosen.driverName,
              verified: chosen.driverVerified,
              ambassador: chosen.driverAmbassador,
            },
          }
        : null,
      // While a driver can be chosen.
      payment_quote:
        row.status === 'open' && row.compensationCents
          ? quoteFor(row.compensationCents, checkout, await creditBalance(db, userId), await feeWaiverOf(db, userId))
          : null,
    };
  }

  /**
   * Soft delete (docs/decisions/005-request-soft-delete.md): the request leaves every list. Refused while a driver
   * is chosen (cancel that booking first): the request row is locked FOR UPDATE, as choose and cancel lock it, so
   * no booking is confirmed or cancelled meanwhile. Its pending offers are declined (event `request_withdrawn`)
   * and stay visible to their drivers; a completed booking keeps its history. One transaction, so a driver never
   * sees one half. Returns false when the user has no such request (unknown, another user's, or already deleted).
   */
  async function remove(userId: string, id: string): Promise<boolean> {
    return db.transaction(async (tx) => {
      const [request] = await tx
        .select({ id: deliveryRequests.id })
        .from(deliveryRequests)
        .where(
          and(eq(deliveryRequests.id, id), eq(deliveryRequests.userId, userId), ne(deliveryRequests.status, 'deleted')),
        )
        .for('update');
      if (!request) return false;
      const [confirmed] = await tx
        .select({ id: bookings.id })
        .from(bookings)
        .where(and(eq(bookings.requestId, id), sql`${bookings.status} = 'confirmed'`))
        .limit(1);
      if (confirmed)
        throw new DomainError('confirmed_booking_exists', LIFECYCLE_ERRORS.confirmed_booking_exists.message);
      await tx.update(deliveryRequests).set({ status: 'deleted' }).where(eq(deliveryRequests.id, id));
      const out = new Outbox();
      // The row is only marked deleted, so the drivers' notices still read its title.
      await notify(tx, out, await declinePendingOffers(tx, id, 'request_withdrawn', userId, out));
      await out.flush(tx);
      return true;
    });
  }

  return { listMine, browse, create, remove, detail };
}

export type RequestService = ReturnType<typeof createRequestService>;
