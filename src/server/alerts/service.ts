import { and, asc, eq, sql } from 'drizzle-orm';
import {
  PLACE_NOT_FOUND,
  ROUTE_NEEDS_PLACES,
  routeAlertName,
  SAVED_SEARCH_LIMIT_MESSAGE,
  SAVED_SEARCH_MAX,
  type BrowseFilters,
  type SavedSearch,
} from '../../shared/places';
import { RIDE_NOT_FOUND } from '../along-route';
import { DomainError, notFound } from '../core/domain-error';
import type { Db } from '../db/client';
import { places, rides, savedSearches } from '../db/schema';
import { boxAround, type Box } from '../places';
import { routeAlertBox } from './route-box';

export const SAVED_SEARCH_NOT_FOUND = 'Saved search not found.';

/** What a saved search keeps of the filters: the ones set, and 'within' only with 'near' (it means nothing alone). */
export type StoredFilters = Partial<Pick<BrowseFilters, 'near' | 'within' | 'from' | 'to' | 'q' | 'verified'>>;

function storedFilters(f: BrowseFilters): StoredFilters {
  return {
    ...(f.near !== undefined ? { near: f.near, within: f.within } : {}),
    ...(f.from ? { from: f.from } : {}),
    ...(f.to ? { to: f.to } : {}),
    ...(f.q ? { q: f.q } : {}),
    ...(f.verified ? { verified: f.verified } : {}),
  };
}

const columns = {
  id: savedSearches.id,
  name: savedSearches.name,
  kind: savedSearches.kind,
  filters: savedSearches.filters,
  rideId: savedSearches.rideId,
  email: savedSearches.email,
  createdAt: savedSearches.createdAt,
  nearLabel: sql<string | null>`(select ${places.name} || ', ' || ${places.state} from ${places}
    where ${places.id} = (${savedSearches.filters} ->> 'near')::int)`,
};
interface Row {
  id: string;
  name: string;
  kind: string;
  filters: unknown;
  rideId: string | null;
  email: boolean;
  createdAt: Date;
  nearLabel: string | null;
}

function toSavedSearch(row: Row): SavedSearch {
  return {
    id: row.id,
    name: row.name,
    // The column's CHECK allows these two only.
    kind: row.kind as SavedSearch['kind'],
    filters: row.filters as SavedSearch['filters'],
    near_label: row.nearLabel,
    ride_id: row.rideId,
    email: row.email,
    created_at: row.createdAt.toISOString(),
  };
}

/** Serializes one user's saved-search writes until the transaction ends (not their other rows: no row lock). */
const lockOwner = (tx: Db, userId: string) =>
  tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`saved-searches:${userId}`}, 0))`);

export function createSavedSearchService(db: Db) {
  const one = async (tx: Db, id: string): Promise<SavedSearch> => {
    const [row] = await tx.select(columns).from(savedSearches).where(eq(savedSearches.id, id));
    if (!row) throw new Error('saved search vanished');
    return toSavedSearch(row);
  };

  /**
   * Adds a saved search within the limit, with the box a matching post must have an end in (null: anywhere; see
   * schema.ts and matching.ts); call `lockOwner` first in the same transaction. The owner's searches are
   * counted under a transaction-scoped advisory lock on their id, so two creates at 19 cannot both see room for
   * one more (an insert ... where count < 20 would: neither statement sees the other's row before it commits).
   * Route alerts count too.
   */
  async function insertWithinLimit(
    tx: Db,
    userId: string,
    values: { name: string; kind: string; filters: StoredFilters; rideId?: string },
    box: Box | null,
  ): Promise<string> {
    const [{ n } = { n: 0 }] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(savedSearches)
      .where(eq(savedSearches.userId, userId));
    if (n >= SAVED_SEARCH_MAX) throw new DomainError('validation_error', SAVED_SEARCH_LIMIT_MESSAGE);
    const [row] = await tx
      .insert(savedSearches)
      .values({
        userId,
        ...values,
        boxMinLat: box?.minLat ?? null,
        boxMaxLat: box?.maxLat ?? null,
        boxMinLon: box?.minLon ?? null,
        boxMaxLon: box?.maxLon ?? null,
      })
      .returning({ id: savedSearches.id });
    if (!row) throw new Error('insert returned no row');
    return row.id;
  }

  /** `POST /saved-searches`: the filters as Browse validated them; a 'near' place that does not exist is a 400. */
  async function create(
    userId: string,
    input: { name: string; kind: SavedSearch['kind']; filters: BrowseFilters },
  ): Promise<SavedSearch> {
    return db.transaction(async (tx) => {
      await lockOwner(tx, userId);
      let box: Box | null = null;
      if (input.filters.near !== undefined) {
        const [place] = await tx
          .select({ lat: places.lat, lon: places.lon })
          .from(places)
          .where(eq(places.id, input.filters.near));
        if (!place) throw new DomainError('validation_error', PLACE_NOT_FOUND);
        box = boxAround(place, input.filters.within);
      }
      const filters = storedFilters(input.filters);
      const id = await insertWithinLimit(tx, userId, { name: input.name, kind: input.kind, filters }, box);
      return one(tx, id);
    });
  }

  /** My saved searches and route alerts, oldest first (the settings page's order). */
  async function list(userId: string): Promise<SavedSearch[]> {
    const rows = await db
      .select(columns)
      .from(savedSearches)
      .where(eq(savedSearches.userId, userId))
      .orderBy(asc(savedSearches.createdAt), asc(savedSearches.id));
    return rows.map(toSavedSearch);
  }

  /** The 'Email' switch; null when the user has no such saved search. */
  async function setEmail(userId: string, id: string, email: boolean): Promise<SavedSearch> {
    return db.transaction(async (tx) => {
      const [row] = await tx
        .update(savedSearches)
        .set({ email })
        .where(and(eq(savedSearches.id, id), eq(savedSearches.userId, userId)))
        .returning({ id: savedSearches.id });
      if (!row) throw notFound(SAVED_SEARCH_NOT_FOUND);
      return one(tx, row.id);
    });
  }

  async function remove(userId: string, id: string): Promise<boolean> {
    const rows = await db
      .delete(savedSearches)
      .where(and(eq(savedSearches.id, id), eq(savedSearches.userId, userId)))
      .returning({ id: savedSearches.id });
    return rows.length > 0;
  }

  /**
   * 'Tell me about new requests along this route': my ride's alert, a saved search of kind 'requests' with its
   * ride_id (unique), named after the route. On again: the existing one (created: false). A ride without places
   * has no corridor to match: 409 route_needs_places.
   */
  async function routeAlertOn(userId: string, rideId: string): Promise<{ created: boolean; item: SavedSearch }> {
    return db.transaction(async (tx) => {
      // The owner's lock covers this ride's alert too: two 'on' at once find, then make, one.
      await lockOwner(tx, userId);
      const [ride] = await tx
        .select({
          origin: rides.origin,
          destination: rides.destination,
          originLat: rides.originLat,
          originLon: rides.originLon,
          destinationLat: rides.destinationLat,
          destinationLon: rides.destinationLon,
        })
        .from(rides)
        .where(and(eq(rides.id, rideId), eq(rides.userId, userId)));
      if (!ride) throw notFound(RIDE_NOT_FOUND);
      const [existing] = await tx
        .select({ id: savedSearches.id })
        .from(savedSearches)
        .where(eq(savedSearches.rideId, rideId));
      if (existing) return { created: false, item: await one(tx, existing.id) };
      const { originLat, originLon, destinationLat, destinationLon } = ride;
      if (originLat === null || originLon === null || destinationLat === null || destinationLon === null)
        throw new DomainError('route_needs_places', ROUTE_NEEDS_PLACES);
      // Matching tests the default corridor of each leg: the box around them holds every request it can match.
      const box = await routeAlertBox(
        tx,
        rideId,
        { lat: originLat, lon: originLon },
        { lat: destinationLat, lon: destinationLon },
      );
      const name = routeAlertName(ride.origin, ride.destination);
      const id = await insertWithinLimit(tx, userId, { name, kind: 'requests', filters: {}, rideId }, box);
      return { created: true, item: await one(tx, id) };
    });
  }

  /** Turns my ride's alert off (nothing to do when it was off); false when the ride is not mine. */
  async function routeAlertOff(userId: string, rideId: string): Promise<boolean> {
    const [ride] = await db
      .select({ id: rides.id })
      .from(rides)
      .where(and(eq(rides.id, rideId), eq(rides.userId, userId)));
    if (!ride) return false;
    await db.delete(savedSearches).where(and(eq(savedSearches.rideId, rideId), eq(savedSearches.userId, userId)));
    return true;
  }

  return { create, list, setEmail, remove, routeAlertOn, routeAlertOff };
}

export type SavedSearchService = ReturnType<typeof createSavedSearchService>;
