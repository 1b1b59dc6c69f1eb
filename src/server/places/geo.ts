import { sql, type SQL } from 'drizzle-orm';

/**
 * Great-circle distances in plain SQL (design: no cube/earthdistance, which PGlite cannot combine with pg_trgm).
 * A query first narrows rows with a latitude/longitude box that the (lat, lon) indexes can range-scan, then keeps
 * those whose haversine distance is within the radius.
 */

export const EARTH_RADIUS_MILES = 3958.8;
/** Miles per degree of latitude (everywhere) and of longitude at the equator. */
export const MILES_PER_DEGREE = (Math.PI * EARTH_RADIUS_MILES) / 180;

/** Coordinates in degrees; `Point<SQL>` or `Point<column>` for a row's. */
export interface Point<T = number> {
  lat: T;
  lon: T;
}

export interface Box {
  minLat: number;
  maxLat: number;
  minLon: number;
  maxLon: number;
}

/**
 * Every point within `miles` of `center` lies in this box: latitude by the plain degree length, longitude widened
 * by the cosine of the box's latitude farthest from the equator (where a degree of longitude is shortest). Wide
 * enough for the contiguous US, Alaska and Hawaii; no place in the data is near a pole or the antimeridian.
 */
export function boxAround(center: Point, miles: number): Box {
  const dLat = miles / MILES_PER_DEGREE;
  const farthestLat = Math.min(89, Math.abs(center.lat) + dLat);
  const dLon = miles / (MILES_PER_DEGREE * Math.cos((farthestLat * Math.PI) / 180));
  return { minLat: center.lat - dLat, maxLat: center.lat + dLat, minLon: center.lon - dLon, maxLon: center.lon + dLon };
}

/** Haversine miles between a row's coordinates and a point given as parameters (or any SQL expressions). */
export function milesBetween(lat: unknown, lon: unknown, point: Point<unknown>): SQL {
  // least(1, ...) keeps rounding from pushing asin's argument past 1 for antipodal points.
  return sql`(${sql.raw(String(EARTH_RADIUS_MILES))} * 2 * asin(least(1, sqrt(
    power(sin(radians(${lat} - ${point.lat}::float8) / 2), 2)
    + cos(radians(${point.lat}::float8)) * cos(radians(${lat})) * power(sin(radians(${lon} - ${point.lon}::float8) / 2), 2)))))`;
}

/** `lat`/`lon` inside the box: the part of a radius test an index on (lat, lon) can use. */
export function inBox(lat: unknown, lon: unknown, box: Box): SQL {
  return sql`${lat} between ${box.minLat}::float8 and ${box.maxLat}::float8 and ${lon} between ${box.minLon}::float8 and ${box.maxLon}::float8`;
}

/** Within `miles` of `center`: the box (indexable) and the exact distance. */
export function withinMiles(lat: unknown, lon: unknown, center: Point, miles: number): SQL {
  return sql`(${inBox(lat, lon, boxAround(center, miles))} and ${milesBetween(lat, lon, center)} <= ${miles}::float8)`;
}
