import { and, asc, eq, getTableColumns, gte, lte, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { earliestToday } from '../../shared/dates';
import { DEFAULT_WITHIN_MILES } from '../../shared/places';
import type { BrowseQuery, Page, Ride } from '../../shared/marketplace';
import type { RideStatus } from '../../shared/statuses';
import type { Db } from '../db/client';
import { profiles, ridePriorityKey, rideStops, rideTimeKey, rides, users } from '../db/schema';
import { ratingFrom } from '../../shared/rating';
import { ratingOf } from '../reviews';
import { ambassadorOf } from '../plans';
import { blockedWith } from '../blocks';
import { cursorDate, cursorFlag, cursorTime, cursorUuid, keysetList, type PageRequest } from '../db/keyset';
import { decodeCursor, toPage } from '../db/cursor';
import { notFound } from '../core/domain-error';
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
import { checkStopsAllowed, stopValues, stopsColumn, stopsOf, writeStops, type StopInput } from './stops';

export const RIDE_NOT_FOUND = 'Ride not found.';

interface RideFields {
  origin: string;
  destination: string;
  departure_date: string;
  departure_time: string | null;
  available_space: string | null;
  notes: string | null;
  origin_place_id: number | null;
  destination_place_id: number | null;
  stops: StopInput[];
}

const rideCursor = z.tuple([cursorDate, cursorTime, cursorUuid]);
/** Browse: the day, a priority listing ('1') or not ('0'), the time key, the id (issue 38). */
const browseCursor = z.tuple([cursorDate, cursorFlag, cursorTime, cursorUuid]);

const columns = {
  id: rides.id,
  userId: rides.userId,
  origin: rides.origin,
  destination: rides.destination,
  departureDate: rides.departureDate,
  departureTime: rides.departureTime,
  availableSpace: rides.availableSpace,
  notes: rides.notes,
  status: rides.status,
  priority: rides.priority,
  createdAt: rides.createdAt,
  originPlaceId: rides.originPlaceId,
  originLat: rides.originLat,
  originLon: rides.originLon,
  destinationPlaceId: rides.destinationPlaceId,
  destinationLat: rides.destinationLat,
  destinationLon: rides.destinationLon,
  posterName: profiles.fullName,
  ratingCount: profiles.ratingCount,
  ratingSum: profiles.ratingSum,
  ownerVerified: profiles.verified,
  ownerAmbassador: ambassadorOf(profiles.plan),
  stops: stopsColumn,
};
interface RideRow {
  id: string;
  userId: string;
  origin: string;
  destination: string;
  departureDate: string;
  departureTime: string | null;
  availableSpace: string | null;
  notes: string | null;
  status: string;
  /** The driver has a paid plan (issue 38): Browse lists it first within its day, with the 'Priority' label. */
  priority: boolean;
  createdAt: Date;
  originPlaceId: number | null;
  originLat: number | null;
  originLon: number | null;
  destinationPlaceId: number | null;
  destinationLat: number | null;
  destinationLon: number | null;
  posterName: string;
  ratingCount: number;
  ratingSum: number;
  ownerVerified: boolean;
  /** Community's 'Ambassador' badge beside the name (issue 38). */
  ownerAmbassador: boolean;
  /** In order; the JSON column (stopsColumn). */
  stops: Parameters<typeof stopsOf>[0];
  /** Browse with 'Near' only. */
  distance?: number;
}

function toRide(row: RideRow, viewerId: string): Ride {
  return {
    id: row.id,
    origin: row.origin,
    destination: row.destination,
    departure_date: row.departureDate,
    // PostgreSQL answers 'HH:MM:SS'; the contract and the form use 'HH:MM'.
    departure_time: row.departureTime ? row.departureTime.slice(0, 5) : null,
    available_space: row.availableSpace,
    notes: row.notes,
    // The column's CHECK is built from the same list (src/shared/statuses.ts), so no other value can be stored.
    status: row.status as RideStatus,
    created_at: row.createdAt.toISOString(),
    poster_name: row.posterName,
    poster_id: row.userId,
    poster_rating: ratingFrom(row.ratingCount, row.ratingSum),
    poster_verified: row.ownerVerified,
    poster_ambassador: row.ownerAmbassador,
    priority: row.priority,
    is_own: row.userId === viewerId,
    origin_point: pointOf(row.originPlaceId, row.originLat, row.originLon),
    destination_point: pointOf(row.destinationPlaceId, row.destinationLat, row.destinationLon),
    stops: stopsOf(row.stops),
    ...(row.distance === undefined ? {} : { distance_miles: roundMiles(row.distance) }),
  };
}

/** My Rides: (date, time-or-end-of-day, id). */
const sortKey = (row: RideRow) => [row.departureDate, row.departureTime ?? '24:00:00', row.id] as const;
const departureOrder = [asc(rides.departureDate), asc(rideTimeKey(rides)), asc(rides.id)];

/** Rows after the cursor in (date, time-or-end-of-day, id) order: one row comparison the indexes can range-scan. */
const afterKey = (date: unknown, time: unknown, id: unknown) =>
  sql`(${rides.departureDate}, ${rideTimeKey(rides)}, ${rides.id}) > (${date}::date, ${time}::time, ${id}::uuid)`;
const afterCursor = afterKey(sql.placeholder('date'), sql.placeholder('time'), sql.placeholder('id'));

/**
 * Browse (issue 38, docs/decisions/034-priority-listing.md): by day, a Plus or Community driver's rides first within
 * it, then by time and id. The priority key is `not priority`, so all four keys ascend: one row comparison over
 * rides_active_departure_idx.
 */
const browseSortKey = (row: RideRow) =>
  [row.departureDate, row.priority ? '1' : '0', row.departureTime ?? '24:00:00', row.id] as const;
const browseOrder = [asc(rides.departureDate), asc(ridePriorityKey(rides)), asc(rideTimeKey(rides)), asc(rides.id)];
const afterBrowseKey = (date: unknown, priority: unknown, time: unknown, id: unknown) =>
  sql`(${rides.departureDate}, ${ridePriorityKey(rides)}, ${rideTimeKey(rides)}, ${rides.id})
    > (${date}::date, not ${priority}::boolean, ${time}::time, ${id}::uuid)`;
const afterBrowseCursor = afterBrowseKey(
  sql.placeholder('date'),
  sql.placeholder('priority'),
  sql.placeholder('time'),
  sql.placeholder('id'),
);

/** Runs inside the transaction that creates a ride, with its id (app.ts: alerts for new rides). */
export type OnRideCreated = (tx: Db, rideId: string) => Promise<unknown>;
/** Runs inside the transaction that replaces a ride's stops (app.ts: its route alert's box). */
export type OnRideStopsChanged = (tx: Db, rideId: string) => Promise<unknown>;

/** Browse: active rides departing on `today` or later, not a suspended driver's nor anyone blocked with the viewer. */
const browsable = (today: unknown, viewerId: unknown) =>
  sql`${rides.status} = 'active' and ${rides.departureDate} >= ${today}::date
      and ${users.suspendedAt} is null and not ${blockedWith(viewerId, rides.userId)}`;

const nearCursor = z.tuple([cursorMiles, cursorUuid]);

export function createRideService(
  db: Db,
  places: PlaceService,
  onCreated: OnRideCreated = async () => undefined,
  onStopsChanged: OnRideStopsChanged = async () => undefined,
) {
  const list = (name: string, filter: SQL, from = () => db.select(columns).from(rides).$dynamic()) =>
    keysetList({
      name,
      from: () => from().innerJoin(profiles, eq(profiles.userId, rides.userId)),
      filter,
      after: afterCursor,
      orderBy: departureOrder,
      cursor: rideCursor,
      bind: ([date, time, id]) => ({ date, time, id }),
      sortKey,
    });
  // My Rides keep the departure order: priority is Browse's alone.
  const mine = list('rides_mine', sql`${rides.userId} = ${sql.placeholder('userId')}`);
  // Browse leaves out a suspended driver's rides and anyone blocked either way with the viewer: one primary-key
  // probe of users and two of blocks per row read, on top of the same index range (bench/explain.ts).
  const browseFrom = () =>
    db
      .select(columns)
      .from(rides)
      .innerJoin(users, eq(users.id, rides.userId))
      .innerJoin(profiles, eq(profiles.userId, rides.userId))
      .$dynamic();
  const active = keysetList({
    name: 'rides_browse',
    from: browseFrom,
    filter: browsable(sql.placeholder('today'), sql.placeholder('viewerId')),
    after: afterBrowseCursor,
    orderBy: browseOrder,
    cursor: browseCursor,
    bind: ([date, priority, time, id]) => ({ date, priority, time, id }),
    sortKey: browseSortKey,
  });
  // Unfiltered browse pages, shared by every viewer with no block, until a write changes the list (src/server/listings).
  const cachedBrowse = createListCache<Ride>(db, {
    list: 'rides',
    idOf: (ride) => ride.id,
    ownerOf: (ride) => ride.poster_id,
    personalize: (ride, viewerId) => ({ ...ride, is_own: ride.poster_id === viewerId }),
  });

  const myLists = myListCache(db);

  /** My rides, from memory while the user's version stands (src/server/listings). */
  async function listMine(userId: string, page: PageRequest): Promise<Page<Ride> | PageJson> {
    return myLists(userId, `rides|${page.limit}|${page.cursor ?? ''}`, () =>
      mine({ userId }, page, (r) => toRide(r, userId)),
    );
  }

  /**
   * Active rides departing today (anywhere on Earth) or later, soonest day first and Plus and Community drivers'
   * rides first within a day (issue 38); not a suspended or blocked driver's. Without filters: the prepared
   * statements. With them (docs/places.md): departure date from/to, every 'Search' word in the route or notes, in the
   * same order; with 'Near' either end or a stop within the radius, nearest first (cursor: miles, id), where a priority ride
   * keeps its label but not a place ahead of nearer ones.
   */
  async function browse(viewerId: string, query: PageRequest & Partial<BrowseQuery>): Promise<Page<Ride> | PageJson> {
    const { near, within, from, to, q, verified } = query;
    const toItem = (r: RideRow) => toRide(r, viewerId);
    if (near === undefined && !from && !to && !q && !verified) {
      const today = earliestToday();
      return cachedBrowse(viewerId, `${today}|${query.limit}|${query.cursor ?? ''}`, () =>
        active({ today, viewerId }, query, toItem),
      );
    }
    const dates = [from ? gte(rides.departureDate, from) : undefined, to ? lte(rides.departureDate, to) : undefined];
    const filters = and(
      browsable(earliestToday(), viewerId),
      ...dates,
      // 'Search' looks in the route and the notes (search_text, migration 0015).
      textMatches(rides.searchText, q),
      verifiedOwner(rides.userId, verified),
    );
    const limit = query.limit + 1;
    if (near === undefined) {
      const key = decodeCursor(query.cursor, browseCursor);
      const rows = await browseFrom()
        .where(and(filters, key ? afterBrowseKey(...key) : undefined))
        .orderBy(...browseOrder)
        .limit(limit);
      return toPage(rows, query.limit, toItem, browseSortKey);
    }
    // 'Near': the page is cut on the point indexes first (nearestPage), with the driver checks as hashed sets, then
    // only its rows are read and joined.
    const center = (await places.pointsOf([near])).get(near)!;
    const page = nearestPage(
      db,
      rides,
      rides.id,
      [
        { lat: rides.originLat, lon: rides.originLon },
        { lat: rides.destinationLat, lon: rides.destinationLon },
      ],
      center,
      within ?? DEFAULT_WITHIN_MILES,
      and(
        sql`${rides.status} = 'active' and ${rides.departureDate} >= ${earliestToday()}::date`,
        visibleTo(viewerId, rides.userId),
        ...dates,
        textMatches(rides.searchText, q),
        verifiedOwner(rides.userId, verified),
      ),
      decodeCursor(query.cursor, nearCursor),
      limit,
      // A ride passing through the place at one of its stops (Plus and Community, issue 38) is near it too.
      { table: rideStops, listing: rideStops.rideId, point: { lat: rideStops.stopLat, lon: rideStops.stopLon } },
    );
    const rows = await db
      .select({ ...columns, distance: page.distance })
      .from(page)
      .innerJoin(rides, eq(rides.id, page.id))
      .innerJoin(profiles, eq(profiles.userId, rides.userId))
      .orderBy(page.distance, page.id);
    return toPage(rows, query.limit, toItem, (r) => [String(r.distance), r.id]);
  }

  /**
   * Place ids the form sent are checked (400 PLACE_NOT_FOUND) and their coordinates copied onto the ride. Stops
   * (Plus and Community only: 403 plan_required on Free) are written in the ride's transaction.
   */
  async function create(user: { id: string; full_name: string }, input: RideFields): Promise<Ride> {
    await checkStopsAllowed(db, user.id, input.stops);
    const points = await places.pointsOf([
      input.origin_place_id,
      input.destination_place_id,
      ...input.stops.map((s) => s.place_id),
    ]);
    const origin = input.origin_place_id === null ? undefined : points.get(input.origin_place_id);
    const destination = input.destination_place_id === null ? undefined : points.get(input.destination_place_id);
    const [row] = await db.transaction(async (tx) => {
      const inserted = await tx
        .insert(rides)
        .values({
          userId: user.id,
          origin: input.origin,
          destination: input.destination,
          departureDate: input.departure_date,
          departureTime: input.departure_time,
          availableSpace: input.available_space,
          notes: input.notes,
          originPlaceId: origin?.id ?? null,
          originLat: origin?.lat ?? null,
          originLon: origin?.lon ?? null,
          destinationPlaceId: destination?.id ?? null,
          destinationLat: destination?.lat ?? null,
          destinationLon: destination?.lon ?? null,
        })
        .returning({ ...getTableColumns(rides), ...ratingOf(rides.userId) });
      const ride = inserted[0];
      if (!ride) return [];
      const stops = stopValues(ride.id, input.stops, points);
      await writeStops(tx, stops, ride.id);
      await onCreated(tx, ride.id);
      const asRead = stops.map((s) => ({ label: s.label, place_id: s.stopPlaceId, lat: s.stopLat, lon: s.stopLon }));
      return [{ ...ride, stops: asRead }];
    });
    if (!row) throw new Error('insert returned no row');
    return toRide({ ...row, posterName: user.full_name }, user.id);
  }

  /**
   * `PUT /rides/:id/stops`: my ride's stops replaced by `stops` ([] removes them). A Free member may only remove
   * them (403 plan_required otherwise). Someone else's ride or an unknown id: 404. The ride's row is touched in the
   * same transaction: it is locked against a second edit, and its list versions move (statement triggers on rides),
   * so no cached page keeps the old stops.
   */
  async function replaceStops(userId: string, rideId: string, stops: StopInput[]): Promise<Ride> {
    await checkStopsAllowed(db, userId, stops);
    const points = await places.pointsOf(stops.map((s) => s.place_id));
    await db.transaction(async (tx) => {
      const [mine] = await tx
        .update(rides)
        .set({ status: sql`${rides.status}` })
        .where(and(eq(rides.id, rideId), eq(rides.userId, userId)))
        .returning({ id: rides.id });
      if (!mine) throw notFound(RIDE_NOT_FOUND);
      await writeStops(tx, stopValues(rideId, stops, points), rideId);
      await onStopsChanged(tx, rideId);
    });
    const ride = await get(userId, rideId);
    if (!ride) throw notFound(RIDE_NOT_FOUND);
    return ride;
  }

  /** Deletes one of the user's own rides; false when there is none with that id (another user's included). */
  async function remove(userId: string, id: string): Promise<boolean> {
    const deleted = await db
      .delete(rides)
      .where(and(eq(rides.id, id), eq(rides.userId, userId)))
      .returning({ id: rides.id });
    return deleted.length > 0;
  }

  /**
   * One ride for `GET /rides/:id`: my own in any state; someone else's only as Browse would show it to me (active,
   * departing today or later, the driver not suspended, no block either way). Otherwise null, as for an unknown id.
   */
  async function get(viewerId: string, id: string): Promise<Ride | null> {
    const [row] = await db
      .select(columns)
      .from(rides)
      .innerJoin(users, eq(users.id, rides.userId))
      .innerJoin(profiles, eq(profiles.userId, rides.userId))
      .where(and(eq(rides.id, id), sql`(${rides.userId} = ${viewerId} or (${browsable(earliestToday(), viewerId)}))`));
    return row ? toRide(row, viewerId) : null;
  }

  return { listMine, browse, create, remove, get, replaceStops };
}

export type RideService = ReturnType<typeof createRideService>;
