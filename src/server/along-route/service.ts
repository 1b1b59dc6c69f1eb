import { and, eq, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { AlongRoutePage, AlongRouteRequest } from '../../shared/along-route';
import { ROUTE_NEEDS_PLACES } from '../../shared/places';
import { centsToDecimal } from '../../shared/money';
import { ratingFrom } from '../../shared/rating';
import type { RequestStatus } from '../../shared/statuses';
import { DomainError, notFound } from '../core/domain-error';
import type { Db } from '../db/client';
import { cursorUuid, type PageRequest } from '../db/keyset';
import { decodeCursor, encodeCursor } from '../db/cursor';
import { rowsOf } from '../db/result-rows';
import { rides } from '../db/schema';
import { pointOf, visibleTo } from '../places';
import { ambassadorOf } from '../plans';
import { alongRouteSql, routeBoxes, routeDetourSql, routeFrames, stopPointsOf, type Route } from './route';

export const RIDE_NOT_FOUND = 'Ride not found.';

/** The sort key: asked first ('0'), then the detour (Infinity for an asked request without places), then id. */
const alongCursor = z.tuple([
  z.enum(['0', '1']),
  z
    .string()
    .regex(/^(-?\d+(\.\d+)?(e[-+]?\d+)?|Infinity)$/)
    .refine((v) => !Number.isNaN(Number(v))),
  cursorUuid,
]);

interface Row {
  id: string;
  user_id: string;
  title: string;
  description: string;
  pickup_location: string;
  delivery_location: string;
  pickup_place_id: number | null;
  pickup_lat: number | string | null;
  pickup_lon: number | string | null;
  delivery_place_id: number | null;
  delivery_lat: number | string | null;
  delivery_lon: number | string | null;
  needed_by_date: string | null;
  compensation_cents: number | null;
  status: string;
  created_at: string;
  requester_name: string;
  rating_count: number;
  rating_sum: number;
  verified: boolean;
  ambassador: boolean;
  priority: boolean;
  asked: boolean;
  detour: number;
}

/** Raw SQL rows may carry doubles as strings (node-postgres keeps float8 exact that way on some setups). */
const num = (v: number | string | null) => (v === null ? null : Number(v));

function toItem(row: Row): AlongRouteRequest {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    pickup_location: row.pickup_location,
    delivery_location: row.delivery_location,
    pickup_point: pointOf(row.pickup_place_id, num(row.pickup_lat), num(row.pickup_lon)),
    delivery_point: pointOf(row.delivery_place_id, num(row.delivery_lat), num(row.delivery_lon)),
    needed_by_date: row.needed_by_date,
    compensation: row.compensation_cents === null ? null : centsToDecimal(row.compensation_cents),
    status: row.status as RequestStatus,
    created_at: row.created_at,
    requester_name: row.requester_name,
    requester_id: row.user_id,
    requester_rating: ratingFrom(row.rating_count, row.rating_sum),
    requester_verified: row.verified,
    requester_ambassador: row.ambassador,
    // The card's 'Priority' label (issue 38); this list keeps its own order (asked first, then the detour).
    priority: row.priority,
    is_own: false,
    // Requests I already offered to carry are left out (contract): Accept stays available on every card.
    accepted_by_me: false,
    detour_miles: Number.isFinite(Number(row.detour)) ? Number(row.detour) : null,
    asked: row.asked,
  };
}

/**
 * The ride as its driver sees it here: its route (both ends have places, or it cannot be computed; the stops with
 * places between them, issue 38) and its date.
 */
interface RideRoute {
  id: string;
  route: Route;
  departureDate: string;
}

export function createAlongRouteService(db: Db) {
  /**
   * Runs the corridor query without parallel workers. Its many index ranges add up to a cost at which PostgreSQL
   * plans a parallel Gather, and starting workers costs more than the query (measured on the bench: 6 ms serial,
   * 25-60 ms parallel on a busy 2-core machine). SET LOCAL needs a transaction; PGlite accepts it too.
   */
  const serially = (query: SQL) =>
    db.transaction(async (tx) => {
      await tx.execute(sql`set local max_parallel_workers_per_gather = 0`);
      return tx.execute(query);
    });

  async function rideOf(driverId: string, rideId: string): Promise<RideRoute> {
    const [ride] = await db
      .select({
        id: rides.id,
        originLat: rides.originLat,
        originLon: rides.originLon,
        destinationLat: rides.destinationLat,
        destinationLon: rides.destinationLon,
        departureDate: rides.departureDate,
      })
      .from(rides)
      .where(and(eq(rides.id, rideId), eq(rides.userId, driverId)));
    if (!ride) throw notFound(RIDE_NOT_FOUND);
    const { originLat, originLon, destinationLat, destinationLon } = ride;
    if (originLat === null || originLon === null || destinationLat === null || destinationLon === null)
      throw new DomainError('route_needs_places', ROUTE_NEEDS_PLACES);
    return {
      id: ride.id,
      route: [
        { lat: originLat, lon: originLon },
        ...(await stopPointsOf(db, ride.id)),
        { lat: destinationLat, lon: destinationLon },
      ],
      departureDate: ride.departureDate,
    };
  }

  /**
   * The requests listed for the ride: `id`, `asked` and `detour`, before ordering (docs/along-route.md).
   * Candidates: one range of the pickup point index per corridor box (UNION: the boxes overlap), each testing the
   * exact corridor on the index's INCLUDE columns (delivery point, needed-by date, owner), so a request outside
   * the corridor costs no table read. The exclusions (mine, suspended or blocked owners, already offered, asked)
   * are hashed sets read once. Plus the requests asked for this ride, whatever their places.
   */
  function listed(driverId: string, ride: RideRoute, corridor: number): SQL {
    const frames = routeFrames(ride.route);
    const pickup = { lat: sql`r.pickup_lat`, lon: sql`r.pickup_lon` };
    const delivery = { lat: sql`r.delivery_lat`, lon: sql`r.delivery_lon` };
    const inCorridor = routeBoxes(ride.route, corridor).map(
      (box) => sql`select r.id, r.user_id, r.needed_by_date, r.pickup_lat, r.pickup_lon, r.delivery_lat, r.delivery_lon
        from delivery_requests r
        where r.status = 'open' and r.pickup_lat between ${box.minLat}::float8 and ${box.maxLat}::float8
          and r.pickup_lon between ${box.minLon}::float8 and ${box.maxLon}::float8
          and ${alongRouteSql(frames, pickup, delivery, sql`${corridor}::float8`)}`,
    );
    const offered = sql`select b.request_id from bookings b where b.driver_id = ${driverId}
      and b.status in ('pending', 'confirmed', 'completed')`;
    const asked = sql`select a.request_id from ride_asks a where a.ride_id = ${ride.id}`;
    return sql`
      select r.id, false as asked, ${routeDetourSql(frames, pickup, delivery)} as detour
      from (${sql.join(inCorridor, sql` union `)}) r
      where (r.needed_by_date is null or r.needed_by_date >= ${ride.departureDate}::date)
        and r.user_id <> ${driverId} and ${visibleTo(driverId, sql`r.user_id`)}
        and r.id not in (${offered}) and r.id not in (${asked})
      union all
      select r.id, true as asked,
        case when r.pickup_lat is null or r.delivery_lat is null then 'Infinity'::float8
          else ${routeDetourSql(frames, pickup, delivery)} end as detour
      from ride_asks a join delivery_requests r on r.id = a.request_id
      where a.ride_id = ${ride.id} and r.status = 'open' and r.user_id <> ${driverId}
        and ${visibleTo(driverId, sql`r.user_id`)} and r.id not in (${offered})`;
  }

  /** `GET /rides/:id/along-route`: asked first, then the smallest detour, keyset-paginated. */
  async function list(driverId: string, rideId: string, corridor: number, page: PageRequest): Promise<AlongRoutePage> {
    const key = decodeCursor(page.cursor, alongCursor);
    const ride = await rideOf(driverId, rideId);
    const after = key
      ? sql`where (case when s.asked then 0 else 1 end, s.detour, s.id) > (${Number(key[0])}::int, ${key[1]}::float8, ${key[2]}::uuid)`
      : sql``;
    // The page is cut on ids and detours; only its rows are read and joined.
    const result = await serially(sql`
      select r.id, r.user_id, r.title, r.description, r.pickup_location, r.delivery_location,
        r.pickup_place_id, r.pickup_lat, r.pickup_lon, r.delivery_place_id, r.delivery_lat, r.delivery_lon,
        r.needed_by_date::text as needed_by_date, r.compensation_cents, r.status,
        to_char(r.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at,
        p.full_name as requester_name, p.rating_count, p.rating_sum, p.verified,
        ${ambassadorOf(sql`p.plan`)} as ambassador, r.priority, l.asked, l.detour
      from (
        select s.id, s.asked, s.detour, case when s.asked then 0 else 1 end as rank
        from (${listed(driverId, ride, corridor)}) s
        ${after}
        order by rank, s.detour, s.id
        limit ${page.limit + 1}
      ) l
      join delivery_requests r on r.id = l.id
      join profiles p on p.user_id = r.user_id
      order by l.rank, l.detour, l.id`);
    const rows = rowsOf<Row>(result);
    const more = rows.length > page.limit;
    const items = rows.slice(0, page.limit);
    const last = items.at(-1);
    return {
      items: items.map(toItem),
      next_cursor: more && last ? encodeCursor([last.asked ? '0' : '1', String(Number(last.detour)), last.id]) : null,
      corridor_miles: corridor,
    };
  }

  /** `GET /rides/:id/along-route/count`: the same requests, counted. */
  async function count(driverId: string, rideId: string, corridor: number): Promise<number> {
    const ride = await rideOf(driverId, rideId);
    const [row] = rowsOf<{ n: number }>(
      await serially(sql`select count(*)::int as n from (${listed(driverId, ride, corridor)}) s`),
    );
    return row?.n ?? 0;
  }

  return { list, count };
}

export type AlongRouteService = ReturnType<typeof createAlongRouteService>;
