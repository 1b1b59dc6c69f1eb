import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  DATE_ORDER_MESSAGE,
  PLACE_NOT_FOUND,
  ROUTE_NEEDS_PLACES,
  SAVED_SEARCH_LIMIT_MESSAGE,
  SAVED_SEARCH_MAX,
  SEARCH_MESSAGE,
  WITHIN_MESSAGE,
  type SavedSearch,
} from '../../shared/places';
import { savedSearches } from '../db/schema';
import { setupTestApp } from '../test/harness';
import { routeHelpers } from '../test/route';

const { ctx, call, signUpAndIn } = setupTestApp({ AUTH_PER_IP_MAX: '100000' });
const { place, postRide } = routeHelpers(() => ctx.database.db, call);

type List = { items: SavedSearch[] };
const save = (token: string, body: unknown) => call<SavedSearch>('POST', '/saved-searches', { cookie: token, body });
const list = async (token: string) => (await call<List>('GET', '/saved-searches', { cookie: token })).body.items;

describe('saved searches', () => {
  it('saves, lists (with the place label), switches e-mail and deletes; others see 404', async () => {
    const ana = await signUpAndIn();
    const ben = await signUpAndIn();
    const decatur = await place({ lat: 39.84, lon: -88.95 }, 'Decatur');
    const created = await save(ana.token, {
      name: '  Feed near Decatur ',
      kind: 'requests',
      filters: { near: String(decatur.id), within: '10', from: '2099-01-01', q: ' café ' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Feed near Decatur',
      kind: 'requests',
      filters: { near: decatur.id, within: 10, from: '2099-01-01', q: 'café' },
      near_label: 'Decatur, IL',
      ride_id: null,
      email: true,
    });
    const rides = await save(ana.token, { name: 'Any ride', kind: 'rides', filters: { within: 50 } });
    // 'Within' without 'Near' means nothing: it is not kept.
    expect(rides.body).toMatchObject({ filters: {}, near_label: null });
    expect((await list(ana.token)).map((s) => s.id)).toEqual([created.body.id, rides.body.id]);
    expect(await list(ben.token)).toEqual([]);

    const path = `/saved-searches/${created.body.id}`;
    const off = await call<SavedSearch>('PATCH', path, { cookie: ana.token, body: { email: false } });
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ ...created.body, email: false });
    for (const [method, body] of [
      ['PATCH', { email: true }],
      ['DELETE', undefined],
    ] as const) {
      const res = await call(method, path, { cookie: ben.token, body });
      expect(res).toMatchObject({ status: 404, body: { code: 'not_found', message: 'Saved search not found.' } });
      expect((await call(method, '/saved-searches/abc', { cookie: ana.token, body })).status).toBe(404);
    }
    expect((await call('DELETE', path, { cookie: ana.token })).status).toBe(204);
    expect((await call('DELETE', path, { cookie: ana.token })).status).toBe(404);
    expect((await list(ana.token)).map((s) => s.id)).toEqual([rides.body.id]);
    expect((await call('GET', '/saved-searches')).status).toBe(401);
  });

  it('refuses bad input with the contract messages', async () => {
    const ana = await signUpAndIn();
    const cases: [unknown, string][] = [
      [{ name: '', kind: 'requests', filters: {} }, 'Name is required'],
      [{ name: 'x'.repeat(101), kind: 'requests', filters: {} }, 'Name must be less than 100 characters'],
      [{ name: 'A', kind: 'requests', filters: { near: 999_999_999 } }, PLACE_NOT_FOUND],
      [{ name: 'A', kind: 'requests', filters: { near: 'abc' } }, PLACE_NOT_FOUND],
      [{ name: 'A', kind: 'requests', filters: { near: 1, within: 1000 } }, WITHIN_MESSAGE],
      [{ name: 'A', kind: 'requests', filters: { within: 0 } }, WITHIN_MESSAGE],
      [{ name: 'A', kind: 'rides', filters: { from: '2099-02-01', to: '2099-01-01' } }, DATE_ORDER_MESSAGE],
      [{ name: 'A', kind: 'rides', filters: { q: 'x'.repeat(201) } }, SEARCH_MESSAGE],
    ];
    for (const [body, message] of cases) {
      const res = await save(ana.token, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toEqual({ code: 'validation_error', message });
    }
    expect((await save(ana.token, { name: 'A', kind: 'cars', filters: {} })).status).toBe(400);
    const patch = await call('PATCH', `/saved-searches/00000000-0000-4000-8000-000000000000`, {
      cookie: ana.token,
      body: { email: 'yes' },
    });
    expect(patch).toMatchObject({ status: 400, body: { message: 'Email must be on or off' } });
    expect(await list(ana.token)).toEqual([]);
  });

  it(`keeps at most ${SAVED_SEARCH_MAX}, even for 300 creates at once`, async () => {
    const ana = await signUpAndIn();
    const results = await Promise.all(
      Array.from({ length: 300 }, (_, k) => save(ana.token, { name: `Search ${k}`, kind: 'requests', filters: {} })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(SAVED_SEARCH_MAX);
    for (const r of results.filter((r) => r.status !== 201))
      expect(r).toMatchObject({ status: 400, body: { code: 'validation_error', message: SAVED_SEARCH_LIMIT_MESSAGE } });
    const rows = await ctx.database.db.select().from(savedSearches).where(eq(savedSearches.userId, ana.user.id));
    expect(rows).toHaveLength(SAVED_SEARCH_MAX);
    // Deleting one makes room for one.
    await call('DELETE', `/saved-searches/${rows[0]!.id}`, { cookie: ana.token });
    expect((await save(ana.token, { name: 'Again', kind: 'rides', filters: {} })).status).toBe(201);
    expect((await save(ana.token, { name: 'One too many', kind: 'rides', filters: {} })).status).toBe(400);
  });
});

describe('route alerts: POST / DELETE /rides/:id/alert', () => {
  it("turns my ride's alert on (once) and off, listed with its ride_id; another person's ride is 404", async () => {
    const dana = await signUpAndIn();
    const other = await signUpAndIn();
    const ride = await postRide(
      dana.token,
      { lat: 39.8, lon: -89.65 },
      { lat: 39.84, lon: -88.95 },
      {
        origin: 'Springfield',
        destination: 'Decatur',
      },
    );
    const on = await call<SavedSearch>('POST', `/rides/${ride.id}/alert`, { cookie: dana.token });
    expect(on.status).toBe(201);
    expect(on.body).toMatchObject({
      name: 'Along Springfield → Decatur',
      kind: 'requests',
      ride_id: ride.id,
      filters: {},
      email: true,
    });
    const again = await call<SavedSearch>('POST', `/rides/${ride.id}/alert`, { cookie: dana.token });
    expect(again).toMatchObject({ status: 200, body: on.body });
    expect((await list(dana.token)).map((s) => s.ride_id)).toEqual([ride.id]);

    for (const method of ['POST', 'DELETE']) {
      const res = await call(method, `/rides/${ride.id}/alert`, { cookie: other.token });
      expect(res).toMatchObject({ status: 404, body: { code: 'not_found', message: 'Ride not found.' } });
      expect((await call(method, '/rides/abc/alert', { cookie: dana.token })).status).toBe(404);
      expect((await call(method, `/rides/${ride.id}/alert`)).status).toBe(401);
    }
    expect((await call('DELETE', `/rides/${ride.id}/alert`, { cookie: dana.token })).status).toBe(204);
    expect(await list(dana.token)).toEqual([]);
    expect((await call('DELETE', `/rides/${ride.id}/alert`, { cookie: dana.token })).status).toBe(204);
  });

  it('needs places on the ride, and counts towards the limit', async () => {
    const dana = await signUpAndIn();
    const free = await postRide(dana.token, null, null);
    const res = await call('POST', `/rides/${free.id}/alert`, { cookie: dana.token });
    expect(res).toMatchObject({ status: 409, body: { code: 'route_needs_places', message: ROUTE_NEEDS_PLACES } });
    for (let k = 0; k < SAVED_SEARCH_MAX; k++)
      expect((await save(dana.token, { name: `S${k}`, kind: 'rides', filters: {} })).status).toBe(201);
    const ride = await postRide(dana.token, { lat: 40, lon: -89 }, { lat: 40.2, lon: -88.5 });
    const full = await call('POST', `/rides/${ride.id}/alert`, { cookie: dana.token });
    expect(full).toMatchObject({ status: 400, body: { message: SAVED_SEARCH_LIMIT_MESSAGE } });
  });
});
