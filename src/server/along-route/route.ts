import { and, asc, eq, isNotNull, sql, type SQL } from 'drizzle-orm';
import { MAX_RIDE_STOPS } from '../../shared/plans';
import type { Db } from '../db/client';
import { rideStops } from '../db/schema';
import type { Box } from '../places';
import {
  MAX_PIECES,
  alongRideSql,
  alongSql,
  corridorBox,
  corridorBoxes,
  detourSql,
  frameOf,
  insertionSql,
  sqlFrameOf,
  sqlFrameOfColumns,
  withinSql,
  type Point,
  type SqlFrame,
} from './geometry';

/**
 * A ride's route with its stops (issue 38, docs/along-route.md): origin, the stops that have a place in order,
 * destination; a polyline of legs, each with the corridor of a ride without stops (its own frame). A stop typed as
 * free text has no coordinates and is left out of the geometry. Without stops the route is one leg and every query
 * here is the one-segment SQL of geometry.ts, unchanged.
 */
export type Route = readonly Point[];

/** SQL point: coordinates as expressions. */
type SqlPoint = Point<unknown>;

export const legsOf = (route: Route): [Point, Point][] => route.slice(1).map((end, i) => [route[i]!, end]);

/** The places of a ride's stops, in order; stops typed as free text are left out. */
export async function stopPointsOf(db: Db, rideId: string): Promise<Point[]> {
  const rows = await db
    .select({ lat: rideStops.stopLat, lon: rideStops.stopLon })
    .from(rideStops)
    .where(and(eq(rideStops.rideId, rideId), isNotNull(rideStops.stopLat)))
    .orderBy(asc(rideStops.position));
  return rows.flatMap(({ lat, lon }) => (lat === null || lon === null ? [] : [{ lat, lon }]));
}

/**
 * Boxes that together hold the corridor of every leg (corridorBoxes per leg). The legs share the one-segment
 * ride's number of pieces, so a route's list is never more index ranges than a long ride's.
 */
export function routeBoxes(route: Route, miles: number): Box[] {
  const legs = legsOf(route);
  const perLeg = Math.max(1, Math.floor(MAX_PIECES / legs.length));
  return legs.flatMap(([a, b]) => corridorBoxes(a, b, miles, perLeg));
}

/** One box around the corridor of every leg (a route alert's): the legs' corridorBox, joined. */
export function routeBox(route: Route, miles: number): Box {
  const boxes = legsOf(route).map(([a, b]) => corridorBox(a, b, miles));
  return {
    minLat: Math.min(...boxes.map((b) => b.minLat)),
    maxLat: Math.max(...boxes.map((b) => b.maxLat)),
    minLon: Math.min(...boxes.map((b) => b.minLon)),
    maxLon: Math.max(...boxes.map((b) => b.maxLon)),
  };
}

/** Each leg's frame as SQL parameters, in order. */
export const routeFrames = (route: Route): SqlFrame[] => legsOf(route).map(([a, b]) => sqlFrameOf(frameOf(a, b)));

/**
 * The request is along the route: the pickup within `miles` of a leg, the delivery within `miles` of that leg or a
 * later one, and when both are on the same leg, the pickup's projection no later than the delivery's (the direction
 * of travel, as on a ride without stops). One leg: alongRideSql itself.
 */
export function alongRouteSql(frames: SqlFrame[], pickup: SqlPoint, delivery: SqlPoint, miles: SQL): SQL {
  if (frames.length === 1) return alongRideSql(frames[0]!, pickup, delivery, miles);
  const terms = frames.map((f, i) => {
    const sameLeg = sql`(${withinSql(f, delivery, miles)}
      and ${alongSql(f, pickup.lat, pickup.lon)} <= ${alongSql(f, delivery.lat, delivery.lon)})`;
    const laterLeg = frames.slice(i + 1).map((g) => withinSql(g, delivery, miles));
    return sql`(${withinSql(f, pickup, miles)} and (${sql.join([sameLeg, ...laterLeg], sql` or `)}))`;
  });
  return sql`(${sql.join(terms, sql` or `)})`;
}

/**
 * The detour's added miles: the cheapest way to fit the pickup, then the delivery, into the route. Both on one leg
 * (origin -> pickup -> delivery -> end of that leg, as detourSql), or the pickup on one leg and the delivery on a
 * later one (each leg's own added miles). One leg: detourSql itself.
 */
export function routeDetourSql(frames: SqlFrame[], pickup: SqlPoint, delivery: SqlPoint): SQL {
  if (frames.length === 1) return detourSql(frames[0]!, pickup, delivery);
  const ways = frames.flatMap((f, i) => [
    detourSql(f, pickup, delivery),
    ...frames.slice(i + 1).map((g) => sql`(${insertionSql(f, pickup)} + ${insertionSql(g, delivery)})`),
  ]);
  return sql`least(${sql.join(ways, sql`, `)})`;
}

/**
 * The legs of the ride row `alias` as rows (n, a_lat, a_lon, b_lat, b_lon), for SQL over rides' columns (matching a
 * new request against route alerts): origin, its stops with places by position, destination, each point paired with
 * the one before it.
 */
function rideLegsSql(alias: string): SQL {
  const r = sql.raw(alias);
  const last = sql.raw(String(MAX_RIDE_STOPS + 1));
  return sql`(select l.n, l.a_lat, l.a_lon, l.b_lat, l.b_lon from (
      select row_number() over w as n, lag(pt.lat) over w as a_lat, lag(pt.lon) over w as a_lon,
        pt.lat as b_lat, pt.lon as b_lon
      from (
        select 0 as pos, ${r}.origin_lat as lat, ${r}.origin_lon as lon
        union all
        select st.position, st.stop_lat, st.stop_lon from ride_stops st
        where st.ride_id = ${r}.id and st.stop_lat is not null
        union all
        select ${last}, ${r}.destination_lat, ${r}.destination_lon
      ) pt
      window w as (order by pt.pos)
    ) l where l.a_lat is not null)`;
}

/** alongRouteSql for the ride row `alias` (both its ends have places), its legs read from its columns and stops. */
export function alongRideRowSql(alias: string, pickup: SqlPoint, delivery: SqlPoint, miles: SQL): SQL {
  const frame = (leg: string) =>
    sqlFrameOfColumns(
      { lat: sql.raw(`${leg}.a_lat`), lon: sql.raw(`${leg}.a_lon`) },
      { lat: sql.raw(`${leg}.b_lat`), lon: sql.raw(`${leg}.b_lon`) },
    );
  const [fp, fd] = [frame('lp'), frame('ld')];
  return sql`exists (
    select 1 from ${rideLegsSql(alias)} lp join ${rideLegsSql(alias)} ld on ld.n >= lp.n
    where ${withinSql(fp, pickup, miles)} and ${withinSql(fd, delivery, miles)}
      and (ld.n > lp.n or ${alongSql(fp, pickup.lat, pickup.lon)} <= ${alongSql(fp, delivery.lat, delivery.lon)}))`;
}
