import { eq } from 'drizzle-orm';
import { CORRIDOR_DEFAULT_MILES } from '../../shared/places';
import { routeBox, stopPointsOf, type Point } from '../along-route';
import type { Db } from '../db/client';
import { rides, savedSearches } from '../db/schema';
import type { Box } from '../places';

/**
 * A route alert's box: matching tests the default corridor of every leg of its ride (origin, the stops with places,
 * destination; issue 38), so the box around them all holds every request the alert can match.
 */
export async function routeAlertBox(tx: Db, rideId: string, origin: Point, destination: Point): Promise<Box> {
  return routeBox([origin, ...(await stopPointsOf(tx, rideId)), destination], CORRIDOR_DEFAULT_MILES);
}

/**
 * After a ride's stops changed (in that change's transaction): its route alert's box, when it has one, is made
 * again from the new route, so matching finds the requests along the new legs and no box is left too small.
 */
export async function refreshRouteAlertBox(tx: Db, rideId: string): Promise<void> {
  const [ride] = await tx
    .select({
      originLat: rides.originLat,
      originLon: rides.originLon,
      destinationLat: rides.destinationLat,
      destinationLon: rides.destinationLon,
    })
    .from(rides)
    .where(eq(rides.id, rideId));
  if (!ride) return;
  const { originLat, originLon, destinationLat, destinationLon } = ride;
  if (originLat === null || originLon === null || destinationLat === null || destinationLon === null) return;
  const box = await routeAlertBox(
    tx,
    rideId,
    { lat: originLat, lon: originLon },
    { lat: destinationLat, lon: destinationLon },
  );
  await tx
    .update(savedSearches)
    .set({ boxMinLat: box.minLat, boxMaxLat: box.maxLat, boxMinLon: box.minLon, boxMaxLon: box.maxLon })
    .where(eq(savedSearches.rideId, rideId));
}
