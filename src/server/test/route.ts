import type { DeliveryRequest, Ride } from '../../shared/marketplace';
import { alertMatching } from '../alerts';
import { MILES_PER_DEGREE, frameOf, type Point } from '../along-route/geometry';
import type { Db } from '../db/client';
import { deliveryRequests, places, rides } from '../db/schema';
import type { CallOptions, CallResult } from './harness';
import { FUTURE, requestBody, rideBody } from './marketplace';

type Caller = <T = unknown>(method: string, path: string, opts?: CallOptions) => Promise<CallResult<T>>;

export interface TestPlace extends Point {
  id: number;
}

/** Ids far above the gazetteer's (about 30k), so a test database that loads places too never collides. */
let nextPlaceId = 900_000 + Math.floor(Math.random() * 1000) * 1000;

/** A point `along` miles from the ride's origin towards its destination and `offset` miles to its left. */
export function pointOnRide(origin: Point, destination: Point, along: number, offset = 0): Point {
  const f = frameOf(origin, destination);
  const [ux, uy] = f.length > 0 ? [f.dx / f.length, f.dy / f.length] : [1, 0];
  const x = along * ux - offset * uy;
  const y = along * uy + offset * ux;
  return { lat: origin.lat + y / MILES_PER_DEGREE, lon: origin.lon + x / f.kx };
}

/**
 * Rides and requests at made-up places: places rows made here, then posted through the API with their ids as the
 * forms send them (the service copies the coordinates); or inserted and matched in one transaction (newRequestAt).
 */
export function routeHelpers(db: () => Db, call: Caller) {
  async function place(point: Point, name = 'Testville'): Promise<TestPlace> {
    const id = nextPlaceId++;
    await db()
      .insert(places)
      .values({ id, name, state: 'IL', zip: String(60000 + (id % 10000)), ...point });
    return { id, ...point };
  }

  /** POST `path` with `body`, plus the two ends' place ids (made here) under `keys` when both points are given. */
  async function postAt<T>(
    path: string,
    token: string,
    body: Record<string, unknown>,
    ends: [Point | null, Point | null],
    keys: [string, string],
    names: [string, string],
  ): Promise<T> {
    const [a, b] = ends;
    const ids = a && b ? { [keys[0]]: (await place(a, names[0])).id, [keys[1]]: (await place(b, names[1])).id } : {};
    const res = await call<T>('POST', path, { cookie: token, body: { ...body, ...ids } });
    if (res.status !== 201) throw new Error(`${path}: not created: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  const postRide = (token: string, from: Point | null, to: Point | null, extra: Record<string, unknown> = {}) =>
    postAt<Ride>(
      '/rides',
      token,
      rideBody(extra),
      [from, to],
      ['origin_place_id', 'destination_place_id'],
      ['Origin', 'Destination'],
    );

  const postRequest = (
    token: string,
    pickup: Point | null,
    delivery: Point | null,
    extra: Record<string, unknown> = {},
  ) =>
    postAt<DeliveryRequest>(
      '/requests',
      token,
      requestBody(extra),
      [pickup, delivery],
      ['pickup_place_id', 'delivery_place_id'],
      ['Pickup', 'Delivery'],
    );

  /**
   * A new request with places AT creation, as the request form will make it: inserted and matched against saved
   * searches in one transaction through the same callback the request service runs (alertMatching).
   */
  async function newRequestAt(
    userId: string,
    pickup: Point,
    delivery: Point,
    extra: { title?: string; description?: string; neededBy?: string | null } = {},
  ): Promise<string> {
    const [p, d] = [await place(pickup, 'Pickup'), await place(delivery, 'Delivery')];
    return db().transaction(async (tx) => {
      const [row] = await tx
        .insert(deliveryRequests)
        .values({
          userId,
          title: extra.title ?? 'Feed from the co-op',
          description: extra.description ?? 'Two bags of layer pellets',
          pickupLocation: 'Pickup',
          deliveryLocation: 'Delivery',
          neededByDate: extra.neededBy === undefined ? FUTURE : extra.neededBy,
          pickupPlaceId: p.id,
          pickupLat: p.lat,
          pickupLon: p.lon,
          deliveryPlaceId: d.id,
          deliveryLat: d.lat,
          deliveryLon: d.lon,
        })
        .returning({ id: deliveryRequests.id });
      await alertMatching.requestCreated(tx, row!.id);
      return row!.id;
    });
  }

  /** The same for a ride: inserted with its places and matched in one transaction. */
  async function newRideAt(
    userId: string,
    origin: Point,
    destination: Point,
    extra: { notes?: string; date?: string } = {},
  ): Promise<string> {
    const [o, d] = [await place(origin, 'Origin'), await place(destination, 'Destination')];
    return db().transaction(async (tx) => {
      const [row] = await tx
        .insert(rides)
        .values({
          userId,
          origin: 'Origin',
          destination: 'Destination',
          departureDate: extra.date ?? FUTURE,
          notes: extra.notes ?? null,
          originPlaceId: o.id,
          originLat: o.lat,
          originLon: o.lon,
          destinationPlaceId: d.id,
          destinationLat: d.lat,
          destinationLon: d.lon,
        })
        .returning({ id: rides.id });
      await alertMatching.rideCreated(tx, row!.id);
      return row!.id;
    });
  }

  /**
   * A ride's `stops` as the form sends them: a point becomes a place made here (its label 'Stop N', its id chosen),
   * a string stays free text.
   */
  async function stopsAt(...stops: (Point | string)[]) {
    const out = [];
    for (const [i, stop] of stops.entries()) {
      const label = typeof stop === 'string' ? stop : `Stop ${i + 1}`;
      out.push({ label, place_id: typeof stop === 'string' ? null : (await place(stop, label)).id });
    }
    return out;
  }

  return { place, postRide, postRequest, newRequestAt, newRideAt, stopsAt };
}
