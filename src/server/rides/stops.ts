import { eq, sql } from 'drizzle-orm';
import type { RideStop } from '../../shared/marketplace';
import { STOPS_TEXT } from '../../shared/plans';
import { DomainError } from '../core/domain-error';
import type { Db } from '../db/client';
import { rideStops, rides } from '../db/schema';
import { pointOf, type PlacePoint } from '../places';
import { isPaid, planOf } from '../plans';

/**
 * A ride's stops (issue 38, advanced route planning): up to MAX_RIDE_STOPS between origin and destination, for
 * Plus and Community drivers. Stored in `ride_stops` in the ride's own transaction, read with the ride.
 */

/** A stop as the form sends it (rideStopInputSchema's output). */
export interface StopInput {
  label: string;
  place_id: number | null;
}

/** One stop as the ride's query reads it: its words and its place's id and coordinates (null for free text). */
interface StopRow {
  label: string;
  place_id: number | null;
  lat: number | null;
  lon: number | null;
}

/**
 * The ride's stops in order as one JSON column of the ride's own query (a primary-key range of ride_stops per ride,
 * no second round trip): Browse's pages, My Rides and the ride's page carry them, cached or not.
 */
export const stopsColumn = sql<StopRow[] | string>`(select coalesce(json_agg(json_build_object(
    'label', s.label, 'place_id', s.stop_place_id, 'lat', s.stop_lat, 'lon', s.stop_lon) order by s.position),
    '[]'::json) from ${rideStops} s where s.ride_id = ${rides.id})`;

/** The column's rows as the contract's stops (a driver that hands json over as text is parsed here). */
export function stopsOf(value: StopRow[] | string | undefined): RideStop[] {
  const rows: StopRow[] = typeof value === 'string' ? (JSON.parse(value) as StopRow[]) : (value ?? []);
  return rows.map((s) => ({ label: s.label, point: pointOf(s.place_id, s.lat, s.lon) }));
}

/** Stops are a paid plan's: a Free member sending any is refused (403 plan_required), whatever else they send. */
export async function checkStopsAllowed(db: Db, userId: string, stops: readonly StopInput[]): Promise<void> {
  if (stops.length > 0 && !isPaid(await planOf(db, userId)))
    throw new DomainError('plan_required', STOPS_TEXT.needsPlan);
}

/** The stops' rows for `rideId`, with the chosen places' coordinates copied (as origin and destination are). */
export function stopValues(rideId: string, stops: readonly StopInput[], points: Map<number, PlacePoint>) {
  return stops.map((stop, i) => {
    const place = stop.place_id === null ? undefined : points.get(stop.place_id);
    return {
      rideId,
      position: i + 1,
      label: stop.label,
      stopPlaceId: place?.id ?? null,
      stopLat: place?.lat ?? null,
      stopLon: place?.lon ?? null,
    };
  });
}

/** Replaces the ride's stops inside the caller's transaction. */
export async function writeStops(tx: Db, rows: ReturnType<typeof stopValues>, rideId: string): Promise<void> {
  await tx.delete(rideStops).where(eq(rideStops.rideId, rideId));
  if (rows.length) await tx.insert(rideStops).values(rows);
}
