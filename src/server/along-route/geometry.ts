import { sql, type SQL } from 'drizzle-orm';
import { MILES_PER_DEGREE, type Box, type Point } from '../places';

export { MILES_PER_DEGREE, type Point };

/**
 * The corridor around a ride (docs/along-route.md). Distances to the straight line from the ride's origin to its
 * destination are measured in a local equirectangular frame centred on the ride: x = Δlon · cos(mean latitude) ·
 * MILES_PER_DEGREE, y = Δlat · MILES_PER_DEGREE. Straight lines in that frame are the ride's straight line, the
 * arithmetic is a few multiplications (cheap per candidate row, and the same in SQL and here), and the bounding box
 * of the corridor is exact in the frame, so a box prefilter on the (lat, lon) indexes never drops a match.
 *
 * Error: the frame uses one cosine for the whole ride, so an east-west offset at latitude φ is scaled by
 * cos(φ̄) instead of cos(φ): a relative error of about tan(φ̄) · |φ - φ̄| (radians). For a 300-mile north-south
 * ride at 40°N (|φ - φ̄| ≤ 2.2°) that is at most 3.2% of the offset, i.e. 0.16 mile on a 5-mile corridor, and the
 * flat-earth error of the frame itself is far smaller at these distances (well under 0.1% within 300 miles). The
 * data are US towns: no ride crosses a pole or the antimeridian.
 */

/** A point this close past the corridor's edge still counts: the edge survives float rounding (1.6 mm). */
export const EDGE_EPSILON_MILES = 1e-6;

/** Coordinates as SQL expressions (columns, parameters). */
type SqlPoint = Point<unknown>;

/** A ride's frame: its origin, the x scale, and the destination in frame miles (dx, dy) with its length². */
export interface Frame {
  lat0: number;
  lon0: number;
  /** Miles per degree of longitude on this ride. */
  kx: number;
  dx: number;
  dy: number;
  /** 1 / (dx² + dy²), or 0 for a ride that starts where it ends (every point then projects onto the origin). */
  invLength2: number;
  length: number;
}

export function frameOf(origin: Point, destination: Point): Frame {
  const kx = Math.cos((((origin.lat + destination.lat) / 2) * Math.PI) / 180) * MILES_PER_DEGREE;
  const dx = (destination.lon - origin.lon) * kx;
  const dy = (destination.lat - origin.lat) * MILES_PER_DEGREE;
  const length2 = dx * dx + dy * dy;
  return {
    lat0: origin.lat,
    lon0: origin.lon,
    kx,
    dx,
    dy,
    invLength2: length2 > 0 ? 1 / length2 : 0,
    length: Math.sqrt(length2),
  };
}

/** Boxes of at most this many pieces: a long ride's list stays one index scan per piece (shared by a route's legs). */
export const MAX_PIECES = 24;

/**
 * Boxes that together hold the whole corridor: the segment cut into pieces about twice the corridor long (at least
 * 10 miles), each piece's box widened by `miles` in the frame. Every point within `miles` of the segment is within
 * `miles` of one piece, so inside that piece's box: the union never drops a match, and for a long diagonal ride it
 * covers a few times less ground than one box around the whole segment (fewer rows read from the index and heap).
 * The frame is linear in latitude and longitude, so the pieces' ends are plain interpolations.
 */
export function corridorBoxes(origin: Point, destination: Point, miles: number, maxPieces = MAX_PIECES): Box[] {
  const { kx, length } = frameOf(origin, destination);
  const dLat = miles / MILES_PER_DEGREE;
  const dLon = miles / kx;
  const pieces = Math.min(maxPieces, Math.max(1, Math.ceil(length / Math.max(10, 2 * miles))));
  const at = (t: number) => ({
    lat: origin.lat + (destination.lat - origin.lat) * t,
    lon: origin.lon + (destination.lon - origin.lon) * t,
  });
  return Array.from({ length: pieces }, (_, k) => {
    const [a, b] = [at(k / pieces), at((k + 1) / pieces)];
    return {
      minLat: Math.min(a.lat, b.lat) - dLat,
      maxLat: Math.max(a.lat, b.lat) + dLat,
      minLon: Math.min(a.lon, b.lon) - dLon,
      maxLon: Math.max(a.lon, b.lon) + dLon,
    };
  });
}

/**
 * One box around the whole corridor (a route alert's, stored with it): the ride's bounding box widened by `miles`
 * in the frame, as corridorBoxes' pieces are. Every point within `miles` of the segment lies inside.
 */
export function corridorBox(origin: Point, destination: Point, miles: number): Box {
  const { kx } = frameOf(origin, destination);
  const dLat = miles / MILES_PER_DEGREE;
  const dLon = miles / kx;
  return {
    minLat: Math.min(origin.lat, destination.lat) - dLat,
    maxLat: Math.max(origin.lat, destination.lat) + dLat,
    minLon: Math.min(origin.lon, destination.lon) - dLon,
    maxLon: Math.max(origin.lon, destination.lon) + dLon,
  };
}

/** The frame's numbers as SQL: parameters for one known ride, or expressions over a ride's columns. */
export interface SqlFrame {
  lat0: SQL;
  lon0: SQL;
  kx: SQL;
  dx: SQL;
  dy: SQL;
  invLength2: SQL;
  length: SQL;
}

const f8 = (v: number) => sql`${v}::float8`;

export function sqlFrameOf(frame: Frame): SqlFrame {
  return {
    lat0: f8(frame.lat0),
    lon0: f8(frame.lon0),
    kx: f8(frame.kx),
    dx: f8(frame.dx),
    dy: f8(frame.dy),
    invLength2: f8(frame.invLength2),
    length: f8(frame.length),
  };
}

/** The frame of the ride whose columns are given (matching a new request against route alerts). */
export function sqlFrameOfColumns(o: SqlPoint, d: SqlPoint): SqlFrame {
  const k = sql.raw(String(MILES_PER_DEGREE));
  const kx = sql`(cos(radians((${o.lat} + ${d.lat}) / 2)) * ${k})`;
  const dx = sql`((${d.lon} - ${o.lon}) * ${kx})`;
  const dy = sql`((${d.lat} - ${o.lat}) * ${k})`;
  const length2 = sql`(${dx} * ${dx} + ${dy} * ${dy})`;
  return {
    lat0: sql`${o.lat}`,
    lon0: sql`${o.lon}`,
    kx,
    dx,
    dy,
    invLength2: sql`(case when ${length2} > 0 then 1 / ${length2} else 0 end)`,
    length: sql`sqrt(${length2})`,
  };
}

/** A point in the frame, in miles from the origin. */
function xy(f: SqlFrame, lat: unknown, lon: unknown) {
  const k = sql.raw(String(MILES_PER_DEGREE));
  return { x: sql`((${lon} - ${f.lon0}) * ${f.kx})`, y: sql`((${lat} - ${f.lat0}) * ${k})` };
}

/** How far along the ride the point projects: 0 at the origin, 1 at the destination (beyond: < 0 or > 1). */
export function alongSql(f: SqlFrame, lat: unknown, lon: unknown): SQL {
  const p = xy(f, lat, lon);
  return sql`((${p.x} * ${f.dx} + ${p.y} * ${f.dy}) * ${f.invLength2})`;
}

/** Miles from the point to the nearest point of the segment (the ends' round caps included). */
export function offsetSql(f: SqlFrame, lat: unknown, lon: unknown): SQL {
  const p = xy(f, lat, lon);
  const t = sql`least(1, greatest(0, ${alongSql(f, lat, lon)}))`;
  return sql`sqrt(power(${p.x} - ${t} * ${f.dx}, 2) + power(${p.y} - ${t} * ${f.dy}, 2))`;
}

/**
 * Within `miles` of the ride's whole line (|cross product| / length): a few multiplications, and true of every point
 * within `miles` of the segment, so it drops most of a corridor box's corners before the exact test.
 */
function nearLineSql(f: SqlFrame, lat: unknown, lon: unknown, miles: SQL): SQL {
  const p = xy(f, lat, lon);
  return sql`abs(${p.x} * ${f.dy} - ${p.y} * ${f.dx}) <= (${miles} + ${EDGE_EPSILON_MILES}::float8) * ${f.length}`;
}

/** Within `miles` of the segment: the line test first (cheap, necessary), then the exact distance. */
export function withinSql(f: SqlFrame, point: SqlPoint, miles: SQL): SQL {
  return sql`(${nearLineSql(f, point.lat, point.lon, miles)}
    and ${offsetSql(f, point.lat, point.lon)} <= ${miles} + ${EDGE_EPSILON_MILES}::float8)`;
}

/** The added miles of going from the segment's start to `p` and on to its end instead of straight. */
export function insertionSql(f: SqlFrame, point: SqlPoint): SQL {
  const p = xy(f, point.lat, point.lon);
  return sql`(sqrt(power(${p.x}, 2) + power(${p.y}, 2)) + sqrt(power(${f.dx} - ${p.x}, 2) + power(${f.dy} - ${p.y}, 2))
    - ${f.length})`;
}

/**
 * The request is along the ride: pickup and delivery both within `miles` of the segment, and the pickup's
 * projection no later than the delivery's (the direction of travel). The line tests come first (PostgreSQL runs
 * the cheaper conditions of an AND first): most candidates of a corridor box fail them.
 */
export function alongRideSql(f: SqlFrame, pickup: SqlPoint, delivery: SqlPoint, miles: SQL): SQL {
  return sql`(${nearLineSql(f, pickup.lat, pickup.lon, miles)} and ${nearLineSql(f, delivery.lat, delivery.lon, miles)}
    and ${offsetSql(f, pickup.lat, pickup.lon)} <= ${miles} + ${EDGE_EPSILON_MILES}::float8
    and ${offsetSql(f, delivery.lat, delivery.lon)} <= ${miles} + ${EDGE_EPSILON_MILES}::float8
    and ${alongSql(f, pickup.lat, pickup.lon)} <= ${alongSql(f, delivery.lat, delivery.lon)})`;
}

/** The detour's added miles: origin -> pickup -> delivery -> destination, less origin -> destination. */
export function detourSql(f: SqlFrame, pickup: SqlPoint, delivery: SqlPoint): SQL {
  const p = xy(f, pickup.lat, pickup.lon);
  const q = xy(f, delivery.lat, delivery.lon);
  return sql`(sqrt(power(${p.x}, 2) + power(${p.y}, 2)) + sqrt(power(${q.x} - ${p.x}, 2) + power(${q.y} - ${p.y}, 2))
    + sqrt(power(${f.dx} - ${q.x}, 2) + power(${f.dy} - ${q.y}, 2)) - ${f.length})`;
}
