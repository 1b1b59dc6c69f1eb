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
import { rowsOf } from '../db/rows';
import { rides } from '../db/schema';
import { blockedWith } from '../moderation';
import { pointOf } from '../places';
import { alongRideSql, corridorBoxes, detourSql, frameOf, sqlFrameOf, type Point } from './geometry';

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
    is_own: false,
    // Requests I already offered to carry are left out (contract): Accept stays available on every card.
    accepted_by_me: false,
    detour_miles: Number.isFinite(Number(row.detour)) ? Number(row.detour) : null,
    asked: row.asked,
  };
}

/** The ride as its driver sees it here: its places (both, or the route cannot be computed) and its date. */
interface RideRoute {
  id: string;
  origin: Point;
  destination: Point;
  departureDate: string;
}

export function createAlongRouteService(db: Db) {
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
      origin: { lat: originLat, lon: originLon },
      destination: { lat: destinationLat, lon: destinationLon },
      departureDate: ride.departureDate,
    };
  }

  /**
   * The requests listed for the ride, with `asked` and `detour`, before ordering. Candidates are the open requests
   * whose pickup AND delivery lie in the corridor's boxes (range scans of the partial (lat, lon) indexes, one per
   * box, OR-ed in a bitmap), plus the requests asked for this ride whatever their places; then the exact corridor
   * test, the date, and the usual exclusions (mine, suspended requesters, blocks either way, already offered).
   */
  function listed(driverId: string, ride: RideRoute, corridor: number): SQL {
    const frame = sqlFrameOf(frameOf(ride.origin, ride.destination));
    const boxes = corridorBoxes(ride.origin, ride.destination, corridor);
    const inBox = (lat: string, lon: string) =>
      sql`(${sql.join(
        boxes.map(
          (box) => sql`(${sql.raw(lat)} between ${box.minLat}::float8 and ${box.maxLat}::float8
            and ${sql.raw(lon)} between ${box.minLon}::float8 and ${box.maxLon}::float8)`,
        ),
        sql` or `,
      )})`;
    const pickup = { lat: sql`r.pickup_lat`, lon: sql`r.pickup_lon` };
    const delivery = { lat: sql`r.delivery_lat`, lon: sql`r.delivery_lon` };
    return sql`
      with candidates as (
        select r.id from delivery_requests r
        where r.status = 'open' and ${inBox('r.pickup_lat', 'r.pickup_lon')} and ${inBox('r.delivery_lat', 'r.delivery_lon')}
        union
        select a.request_id from ride_asks a where a.ride_id = ${ride.id}
      )
      select r.*, a.request_id is not null as asked,
        case when r.pickup_lat is null or r.delivery_lat is null then 'Infinity'::float8
          else ${detourSql(frame, pickup, delivery)} end as detour
      from candidates c
      join delivery_requests r on r.id = c.id
      join users u on u.id = r.user_id
      left join ride_asks a on a.ride_id = ${ride.id} and a.request_id = r.id
      where r.status = 'open' and u.suspended_at is null and r.user_id <> ${driverId}
        and not ${blockedWith(driverId, sql`r.user_id`)}
        and not exists (select 1 from bookings b where b.request_id = r.id and b.driver_id = ${driverId}
          and b.status in ('pending', 'confirmed', 'completed'))
        and (a.request_id is not null or (
          ${alongRideSql(frame, pickup, delivery, sql`${corridor}::float8`)}
          and (r.needed_by_date is null or r.needed_by_date >= ${ride.departureDate}::date)))`;
  }

  /** `GET /rides/:id/along-route`: asked first, then the smallest detour, keyset-paginated. */
  async function list(driverId: string, rideId: string, corridor: number, page: PageRequest): Promise<AlongRoutePage> {
    const key = decodeCursor(page.cursor, alongCursor);
    const ride = await rideOf(driverId, rideId);
    const after = key
      ? sql`where (l.rank, l.detour, l.id) > (${Number(key[0])}::int, ${key[1]}::float8, ${key[2]}::uuid)`
      : sql``;
    const result = await db.execute(sql`
      select l.id, l.user_id, l.title, l.description, l.pickup_location, l.delivery_location,
        l.pickup_place_id, l.pickup_lat, l.pickup_lon, l.delivery_place_id, l.delivery_lat, l.delivery_lon,
        l.needed_by_date::text as needed_by_date, l.compensation_cents, l.status,
        to_char(l.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at,
        p.full_name as requester_name, p.rating_count, p.rating_sum, l.asked, l.detour
      from (select s.*, case when s.asked then 0 else 1 end as rank from (${listed(driverId, ride, corridor)}) s) l
      join profiles p on p.user_id = l.user_id
      ${after}
      order by l.rank, l.detour, l.id
      limit ${page.limit + 1}`);
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
      await db.execute(sql`select count(*)::int as n from (${listed(driverId, ride, corridor)}) s`),
    );
    return row?.n ?? 0;
  }

  return { list, count };
}

export type AlongRouteService = ReturnType<typeof createAlongRouteService>;
