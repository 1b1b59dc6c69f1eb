import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { earliestToday } from '../../shared/dates';
import type { Ride } from '../../shared/marketplace';
import { PLACE_NOT_FOUND } from '../../shared/places';
import { STOPS_TEXT } from '../../shared/plans';
import { rideStops, rides } from '../db/schema';
import { STRONG_PASSWORD, setupTestApp } from '../test/harness';
import { countRows, rideBody, type PageBody } from '../test/marketplace';
import { setPlan } from '../test/plans';
import { routeHelpers } from '../test/route';

// Advanced route planning (issue 38): a Plus or Community driver's ride may have up to 3 stops.
const { ctx, call, signUpAndIn, signIn } = setupTestApp({ AUTH_PER_IP_MAX: '100000' });
const { stopsAt } = routeHelpers(() => ctx.database.db, call);
const db = () => ctx.database.db;

const PLAN_REQUIRED = { code: 'plan_required', message: STOPS_TEXT.needsPlan };

async function driver(plan: 'plus' | 'community' | null = 'plus', name = 'Dana Driver') {
  const who = await signUpAndIn(name);
  await setPlan(db(), who.user.id, plan);
  return who;
}

const post = (token: string, extra: Record<string, unknown>) =>
  call<Ride>('POST', '/rides', { cookie: token, body: rideBody(extra) });
const putStops = (token: string, id: string, stops: unknown) =>
  call<Ride>('PUT', `/rides/${id}/stops`, { cookie: token, body: { stops } });
const read = (token: string, id: string) => call<Ride>('GET', `/rides/${id}`, { cookie: token });
const counts = async () => [await countRows(db(), rides), await countRows(db(), rideStops)];

describe('POST /rides with stops', () => {
  it('a Plus driver posts two stops; the ride answers them in order, with the chosen place or none', async () => {
    const dana = await driver('plus');
    const other = await signUpAndIn('Olly Other');
    const stops = await stopsAt({ lat: 40.1, lon: -89.2 }, '  Miller farm gate  ');
    const res = await post(dana.token, { stops, departure_date: earliestToday() });
    expect(res.status).toBe(201);
    const expected = [
      { label: 'Stop 1', point: { place_id: stops[0]!.place_id, lat: 40.1, lon: -89.2 } },
      { label: 'Miller farm gate', point: null },
    ];
    expect(res.body.stops).toEqual(expected);
    // The same from every read: the ride's page, My Rides and Browse (another member's).
    expect((await read(dana.token, res.body.id)).body).toEqual(res.body);
    expect((await read(other.token, res.body.id)).body.stops).toEqual(expected);
    const mine = await call<PageBody<Ride>>('GET', '/rides/mine?limit=50', { cookie: dana.token });
    expect(mine.body.items.find((r) => r.id === res.body.id)?.stops).toEqual(expected);
    const browse = await call<PageBody<Ride>>('GET', '/rides/browse?limit=50', { cookie: other.token });
    expect(browse.body.items.find((r) => r.id === res.body.id)?.stops).toEqual(expected);
    const rows = await db().select().from(rideStops).where(eq(rideStops.rideId, res.body.id));
    expect(rows.map((r) => [r.position, r.label]).sort()).toEqual([
      [1, 'Stop 1'],
      [2, 'Miller farm gate'],
    ]);
  });

  it('a Community driver may post three stops; a ride without stops answers an empty list', async () => {
    const cy = await driver('community');
    const res = await post(cy.token, { stops: ['A', 'B', 'C'].map((label) => ({ label })) });
    expect(res.status).toBe(201);
    expect(res.body.stops.map((s) => s.label)).toEqual(['A', 'B', 'C']);
    const plain = await post(cy.token, {});
    expect(plain.status).toBe(201);
    expect(plain.body.stops).toEqual([]);
  });

  it('refuses stops from a Free member (403 plan_required) and saves nothing; no stops is fine', async () => {
    const free = await driver(null, 'Fred Free');
    const before = await counts();
    const res = await post(free.token, { stops: await stopsAt({ lat: 40.2, lon: -89.3 }) });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(PLAN_REQUIRED);
    expect(await counts()).toEqual(before);
    for (const stops of [[], null, undefined]) {
      const ok = await post(free.token, { stops });
      expect(ok.status).toBe(201);
      expect(ok.body.stops).toEqual([]);
    }
  });

  it.each([
    [[{ label: 'A' }, { label: 'B' }, { label: 'C' }, { label: 'D' }], STOPS_TEXT.tooMany],
    ['Millbrook', STOPS_TEXT.tooMany],
    [[{ label: '' }], STOPS_TEXT.required],
    [[{ label: '   ' }], STOPS_TEXT.required],
    [['Millbrook'], STOPS_TEXT.required],
    [[{ label: 'x'.repeat(501) }], STOPS_TEXT.tooLong],
    [[{ label: 'Somewhere', place_id: 2_000_000_000 }], PLACE_NOT_FOUND],
    [[{ label: 'Somewhere', place_id: 'abc' }], PLACE_NOT_FOUND],
  ])('refuses stops %j with 400 "%s" and saves nothing', async (stops, message) => {
    const dana = await driver('plus');
    const before = await counts();
    const res = await post(dana.token, { stops });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'validation_error', message });
    expect(await counts()).toEqual(before);
  });
});

describe("Browse 'Near' and a ride's stops", () => {
  it("a ride passing through the place at a stop is near it, at the stop's distance; removing the stop takes it out", async () => {
    const dana = await driver('plus');
    const other = await signUpAndIn('Nia Near');
    // Far from every other test's places: the ride's ends are free text, its one stop is the place itself.
    const [stop] = await stopsAt({ lat: 44.61, lon: -101.37 });
    const ride = await post(dana.token, { stops: [stop] });
    const plain = await post(dana.token, {});
    const near = async () =>
      (
        await call<PageBody<Ride & { distance_miles?: number }>>(
          'GET',
          `/rides/browse?near=${stop!.place_id}&within=5&limit=50`,
          { cookie: other.token },
        )
      ).body.items;
    const found = await near();
    expect(found.map((r) => r.id)).toEqual([ride.body.id]);
    expect(found[0]!.distance_miles).toBe(0);
    expect(found.map((r) => r.id)).not.toContain(plain.body.id);
    expect((await putStops(dana.token, ride.body.id, [])).status).toBe(200);
    expect(await near()).toEqual([]);
  });
});

describe('PUT /rides/:id/stops', () => {
  it('replaces the stops in the new order, [] removes them, and Browse and My Rides show each change', async () => {
    const dana = await driver('plus');
    const other = await signUpAndIn();
    const ride = (await post(dana.token, { stops: [{ label: 'Old' }], departure_date: earliestToday() })).body;
    const browsed = async () =>
      (await call<PageBody<Ride>>('GET', '/rides/browse?limit=50', { cookie: other.token })).body.items.find(
        (r) => r.id === ride.id,
      )?.stops;
    const mine = async () =>
      (await call<PageBody<Ride>>('GET', '/rides/mine?limit=50', { cookie: dana.token })).body.items.find(
        (r) => r.id === ride.id,
      )?.stops;
    // Both lists are read (and cached) before each change.
    expect(await browsed()).toEqual([{ label: 'Old', point: null }]);
    expect(await mine()).toEqual([{ label: 'Old', point: null }]);

    const stops = await stopsAt('Second', { lat: 40.3, lon: -89.4 });
    const res = await putStops(dana.token, ride.id, [stops[1], stops[0]]);
    expect(res.status).toBe(200);
    const expected = [
      { label: 'Stop 2', point: { place_id: stops[1]!.place_id, lat: 40.3, lon: -89.4 } },
      { label: 'Second', point: null },
    ];
    expect(res.body).toEqual({ ...ride, stops: expected });
    expect(await browsed()).toEqual(expected);
    expect(await mine()).toEqual(expected);

    const cleared = await putStops(dana.token, ride.id, []);
    expect(cleared.status).toBe(200);
    expect(cleared.body.stops).toEqual([]);
    expect(await browsed()).toEqual([]);
    expect(await mine()).toEqual([]);
    expect(await db().select().from(rideStops).where(eq(rideStops.rideId, ride.id))).toEqual([]);
  });

  it("answers 404 for someone else's ride or an unknown id, 400 for bad stops, and changes nothing", async () => {
    const dana = await driver('plus');
    const other = await driver('plus', 'Olly Other');
    const ride = (await post(dana.token, { stops: [{ label: 'Kept' }] })).body;
    const notFound = { code: 'not_found', message: 'Ride not found.' };
    expect((await putStops(other.token, ride.id, [{ label: 'Mine now' }])).body).toEqual(notFound);
    expect((await putStops(other.token, ride.id, [])).status).toBe(404);
    expect((await putStops(dana.token, '00000000-0000-4000-8000-000000000000', [])).body).toEqual(notFound);
    expect((await putStops(dana.token, 'not-a-uuid', [])).status).toBe(404);
    const tooMany = await putStops(
      dana.token,
      ride.id,
      ['A', 'B', 'C', 'D'].map((label) => ({ label })),
    );
    expect(tooMany.body).toEqual({ code: 'validation_error', message: STOPS_TEXT.tooMany });
    const badPlace = await putStops(dana.token, ride.id, [{ label: 'X', place_id: 2_000_000_000 }]);
    expect(badPlace.body).toEqual({ code: 'validation_error', message: PLACE_NOT_FOUND });
    const notJson = await call('PUT', `/rides/${ride.id}/stops`, { cookie: dana.token, body: [] });
    expect(notJson.status).toBe(400);
    expect((await read(dana.token, ride.id)).body.stops).toEqual([{ label: 'Kept', point: null }]);
  });

  it('a driver back on Free keeps their ride stops, may remove them, but not add or change any', async () => {
    const dana = await driver('plus');
    const ride = (await post(dana.token, { stops: [{ label: 'Kept' }, { label: 'Also kept' }] })).body;
    await setPlan(db(), dana.user.id, null);
    expect((await read(dana.token, ride.id)).body.stops.map((s) => s.label)).toEqual(['Kept', 'Also kept']);

    const res = await putStops(dana.token, ride.id, [{ label: 'Kept' }]);
    expect(res.status).toBe(403);
    expect(res.body).toEqual(PLAN_REQUIRED);
    expect((await post(dana.token, { stops: [{ label: 'New' }] })).body).toEqual(PLAN_REQUIRED);
    expect((await read(dana.token, ride.id)).body.stops).toHaveLength(2);

    expect((await putStops(dana.token, ride.id, [])).body.stops).toEqual([]);
  });

  it('needs a session', async () => {
    const res = await call('PUT', '/rides/00000000-0000-4000-8000-000000000000/stops', { body: { stops: [] } });
    expect(res.status).toBe(401);
  });
});

describe('GET /auth/session', () => {
  it("carries the member's plan, for the forms (a new session reads the current one)", async () => {
    const dana = await signUpAndIn();
    const plan = async (token: string) =>
      (await call<{ user: { plan: string } }>('GET', '/auth/session', { cookie: token })).body.user.plan;
    expect(await plan(dana.token)).toBe('free');
    await setPlan(db(), dana.user.id, 'community');
    expect(await plan(await signIn(dana.email, STRONG_PASSWORD))).toBe('community');
  });
});
