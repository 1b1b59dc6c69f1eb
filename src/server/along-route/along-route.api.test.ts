import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { AlongRoutePage } from '../../shared/along-route';
import { INVALID_CURSOR_MESSAGE } from '../../shared/marketplace';
import { CORRIDOR_MESSAGE, ROUTE_NEEDS_PLACES } from '../../shared/places';
import { users } from '../db/schema';
import { setupTestApp } from '../test/harness';
import { collectPages } from '../test/marketplace';
import { setPlan } from '../test/plans';
import { pointOnRide, routeHelpers } from '../test/route';
import { frameOf, MILES_PER_DEGREE, type Point } from './geometry';

const { ctx, call, signUpAndIn } = setupTestApp({ AUTH_PER_IP_MAX: '100000' });
const { postRide, postRequest } = routeHelpers(() => ctx.database.db, call);

/** Each test drives its own ride, 2° of latitude from the others: no corridor reaches another test's requests. */
let band = 0;
async function driverWithRide(extra: Record<string, unknown> = {}) {
  band += 1;
  const origin = { lat: 26 + 2 * band, lon: -90 };
  const destination = { lat: 26 + 2 * band + 0.3, lon: -89.5 };
  const driver = await signUpAndIn('Dana Driver');
  const ride = await postRide(driver.token, origin, destination, extra);
  const length = frameOf(origin, destination).length;
  /** A point `along` miles from the origin (past the destination: more than `length`), `offset` to the left. */
  const at = (along: number, offset = 0) => pointOnRide(origin, destination, along, offset);
  const list = (query = '') =>
    call<AlongRoutePage>('GET', `/rides/${ride.id}/along-route${query}`, { cookie: driver.token });
  const ids = async (query = '') => (await list(query)).body.items.map((i) => i.id);
  return { driver, ride, origin, destination, length, at, list, ids };
}

/** The detour through pickup and delivery in the ride's frame: what the list should say. */
function detour(o: Point, d: Point, p: Point, q: Point) {
  const f = frameOf(o, d);
  const xy = (pt: Point) => [(pt.lon - o.lon) * f.kx, (pt.lat - o.lat) * MILES_PER_DEGREE] as const;
  const [px, py] = xy(p);
  const [qx, qy] = xy(q);
  return Math.hypot(px, py) + Math.hypot(qx - px, qy - py) + Math.hypot(f.dx - qx, f.dy - qy) - f.length;
}

describe('GET /rides/:id/along-route: the corridor', () => {
  it('lists requests whose pickup and delivery both lie inside, in the direction of travel', async () => {
    const r = await driverWithRide();
    const asker = await signUpAndIn('Rae Requester');
    const inside = await postRequest(asker.token, r.at(5, 2), r.at(25, -3), { title: 'Inside' });
    const pickupOut = await postRequest(asker.token, r.at(5, 6), r.at(25, 0), { title: 'Pickup outside' });
    const deliveryOut = await postRequest(asker.token, r.at(5, 0), r.at(25, -6), { title: 'Delivery outside' });
    const backwards = await postRequest(asker.token, r.at(25, 0), r.at(5, 0), { title: 'Wrong direction' });
    const noPlaces = await postRequest(asker.token, null, null, { title: 'Free text' });

    const res = await r.list();
    expect(res.status).toBe(200);
    expect(res.body.corridor_miles).toBe(5);
    expect(res.body.items.map((i) => i.title)).toEqual(['Inside']);
    expect(res.body.items[0]).toMatchObject({
      id: inside.id,
      requester_name: 'Rae Requester',
      requester_id: asker.user.id,
      is_own: false,
      accepted_by_me: false,
      asked: false,
      status: 'open',
    });
    const ids = await r.ids('?corridor=7');
    expect(ids).toEqual(expect.arrayContaining([inside.id, pickupOut.id, deliveryOut.id]));
    expect(ids).not.toContain(backwards.id);
    expect(ids).not.toContain(noPlaces.id);
  });

  it("carries Community's 'Ambassador' badge beside a requester's name (issue 38), not a Free one's", async () => {
    const r = await driverWithRide();
    const member = await signUpAndIn('Cam Community');
    const free = await signUpAndIn('Fay Free');
    await setPlan(ctx.database.db, member.user.id, 'community');
    const community = await postRequest(member.token, r.at(5, 1), r.at(20, -1), { title: 'Community feed' });
    const onFree = await postRequest(free.token, r.at(6, 1), r.at(21, -1), { title: 'Free feed' });
    const items = (await r.list()).body.items;
    expect(Object.fromEntries(items.map((i) => [i.id, i.requester_ambassador]))).toEqual({
      [community.id]: true,
      [onFree.id]: false,
    });
  });

  it('includes the round caps beyond both ends, not what lies further', async () => {
    const r = await driverWithRide();
    const asker = await signUpAndIn();
    const before = await postRequest(asker.token, r.at(-4.9), r.at(10));
    const beforeCorner = await postRequest(asker.token, r.at(-3, 3), r.at(10)); // 4.24 miles from the origin
    const tooEarly = await postRequest(asker.token, r.at(-5.2), r.at(10));
    const outsideCorner = await postRequest(asker.token, r.at(-4, 4), r.at(10)); // 5.66 miles: the cap is round
    const after = await postRequest(asker.token, r.at(10), r.at(r.length + 4.9));
    const tooLate = await postRequest(asker.token, r.at(10), r.at(r.length + 5.2));
    const ids = await r.ids();
    expect(ids).toEqual(expect.arrayContaining([before.id, beforeCorner.id, after.id]));
    expect(ids).not.toContain(tooEarly.id);
    expect(ids).not.toContain(outsideCorner.id);
    expect(ids).not.toContain(tooLate.id);
  });

  it('counts a point exactly on the edge in (float rounding included), a thousandth of a mile past it out', async () => {
    const r = await driverWithRide();
    const asker = await signUpAndIn();
    const left = await postRequest(asker.token, r.at(3, 5), r.at(20, 5));
    const right = await postRequest(asker.token, r.at(3, -5), r.at(20, -5));
    const past = await postRequest(asker.token, r.at(3, 5.001), r.at(20, 0));
    const ids = await r.ids();
    expect(ids).toEqual(expect.arrayContaining([left.id, right.id]));
    expect(ids).not.toContain(past.id);
    expect(await r.ids('?corridor=5.001')).toContain(past.id);
  });

  it('keeps requests needed on or after the ride date, or undated', async () => {
    const r = await driverWithRide({ departure_date: '2099-06-15' });
    const asker = await signUpAndIn();
    const sameDay = await postRequest(asker.token, r.at(2), r.at(8), { needed_by_date: '2099-06-15' });
    const later = await postRequest(asker.token, r.at(2), r.at(8), { needed_by_date: '2099-07-01' });
    const undated = await postRequest(asker.token, r.at(2), r.at(8), { needed_by_date: null });
    const tooSoon = await postRequest(asker.token, r.at(2), r.at(8), { needed_by_date: '2099-06-14' });
    const ids = await r.ids();
    expect(ids.sort()).toEqual([sameDay.id, later.id, undated.id].sort());
    expect(ids).not.toContain(tooSoon.id);
  });

  it('orders by the added miles of the detour, and pages through them in that order', async () => {
    const r = await driverWithRide();
    const asker = await signUpAndIn();
    const offsets = [4, 0.5, 3, 0, 2, 1];
    const posted = [];
    for (const [k, offset] of offsets.entries()) {
      const pickup = r.at(2 + k, offset);
      const delivery = r.at(20 + k, offset);
      const req = await postRequest(asker.token, pickup, delivery, { title: `Offset ${offset}` });
      posted.push({ id: req.id, offset, miles: detour(r.origin, r.destination, pickup, delivery) });
    }
    const expected = [...posted].sort((a, b) => a.miles - b.miles);
    const first = await r.list();
    expect(first.body.items.map((i) => i.id)).toEqual(expected.map((p) => p.id));
    for (const [k, item] of first.body.items.entries()) expect(item.detour_miles).toBeCloseTo(expected[k]!.miles, 6);
    expect(first.body.items[0]!.detour_miles).toBeCloseTo(0, 6); // on the line, in order: no detour

    const paged = await collectPages((cursor) => r.list(`?limit=4${cursor ? `&cursor=${cursor}` : ''}`));
    expect(paged.pages).toBe(2);
    expect(paged.items.map((i) => i.id)).toEqual(expected.map((p) => p.id));
    const count = await call<{ count: number }>('GET', `/rides/${r.ride.id}/along-route/count`, {
      cookie: r.driver.token,
    });
    expect(count.body).toEqual({ count: offsets.length });
    const wide = await call<{ count: number }>('GET', `/rides/${r.ride.id}/along-route/count?corridor=1`, {
      cookie: r.driver.token,
    });
    expect(wide.body).toEqual({ count: 3 }); // offsets 0, 0.5 and 1
  });

  it('leaves out my own requests, blocked people either way, requests I offered on, and closed ones', async () => {
    const r = await driverWithRide();
    const [ana, ben, cy, dee] = [
      await signUpAndIn('Ana'),
      await signUpAndIn('Ben'),
      await signUpAndIn('Cy'),
      await signUpAndIn('Dee'),
    ];
    const mine = await postRequest(r.driver.token, r.at(1), r.at(9));
    const fromAna = await postRequest(ana.token, r.at(1), r.at(9));
    const fromBen = await postRequest(ben.token, r.at(1), r.at(9));
    const fromCy = await postRequest(cy.token, r.at(1), r.at(9));
    const fromDee = await postRequest(dee.token, r.at(1), r.at(9));
    expect((await call('POST', '/blocks', { cookie: r.driver.token, body: { user_id: ben.user.id } })).status).toBe(
      201,
    );
    expect((await call('POST', '/blocks', { cookie: cy.token, body: { user_id: r.driver.user.id } })).status).toBe(201);
    const offer = await call('POST', '/bookings', { cookie: r.driver.token, body: { request_id: fromDee.id } });
    expect(offer.status).toBe(201);
    const gone = await postRequest(ana.token, r.at(1), r.at(9));
    expect((await call('DELETE', `/requests/${gone.id}`, { cookie: ana.token })).status).toBe(204);

    expect(await r.ids()).toEqual([fromAna.id]);
    for (const id of [mine.id, fromBen.id, fromCy.id, fromDee.id, gone.id]) expect(await r.ids()).not.toContain(id);
  });
});

describe('GET /rides/:id/along-route: pages around left-out requests', () => {
  it('cuts full pages of the listed requests, the left-out ones lying between them by detour', async () => {
    const r = await driverWithRide();
    const [ana, ben, cy, dee, eve] = [
      await signUpAndIn('Ana'),
      await signUpAndIn('Ben'),
      await signUpAndIn('Cy'),
      await signUpAndIn('Dee'),
      await signUpAndIn('Eve'),
    ];
    expect((await call('POST', '/blocks', { cookie: r.driver.token, body: { user_id: ben.user.id } })).status).toBe(
      201,
    );
    expect((await call('POST', '/blocks', { cookie: cy.token, body: { user_id: r.driver.user.id } })).status).toBe(201);
    // Ana's requests at growing detours; before each, a blocked, a blocking, a suspended person's and one I offered
    // on, each with a smaller detour than hers.
    const listed: string[] = [];
    for (const k of [0, 1, 2, 3, 4]) {
      const at = (d: number) => [r.at(2, k + d), r.at(20, k + d)] as const;
      for (const [who, d] of [
        [ben, 0.1],
        [cy, 0.2],
        [dee, 0.3],
      ] as const)
        await postRequest(who.token, ...at(d));
      const offered = await postRequest(eve.token, ...at(0.4));
      expect(
        (await call('POST', '/bookings', { cookie: r.driver.token, body: { request_id: offered.id } })).status,
      ).toBe(201);
      listed.push((await postRequest(ana.token, ...at(0.5))).id);
    }
    await ctx.database.db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, dee.user.id));

    for (const limit of [1, 2, 3]) {
      const sizes: number[] = [];
      const paged = await collectPages(async (cursor) => {
        const res = await r.list(`?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
        sizes.push(res.body.items.length);
        return res;
      });
      expect(paged.items.map((i) => i.id)).toEqual(listed);
      expect(sizes).toEqual(
        listed
          .map((_, i) => i)
          .filter((i) => i % limit === 0)
          .map((i) => Math.min(limit, listed.length - i)),
      );
    }
    const count = await call<{ count: number }>('GET', `/rides/${r.ride.id}/along-route/count`, {
      cookie: r.driver.token,
    });
    expect(count.body).toEqual({ count: listed.length });
  });
});

describe('GET /rides/:id/along-route: who and what may ask', () => {
  it("is the driver's alone: another person's ride, an unknown or malformed id are 404; no session is 401", async () => {
    const r = await driverWithRide();
    const other = await signUpAndIn();
    for (const path of [`/rides/${r.ride.id}/along-route`, `/rides/${r.ride.id}/along-route/count`]) {
      const res = await call('GET', path, { cookie: other.token });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: 'not_found', message: 'Ride not found.' });
      expect((await call('GET', path)).status).toBe(401);
    }
    for (const id of ['00000000-0000-4000-8000-000000000000', 'abc', '1']) {
      expect((await call('GET', `/rides/${id}/along-route`, { cookie: r.driver.token })).status).toBe(404);
      expect((await call('GET', `/rides/${id}/along-route/count`, { cookie: r.driver.token })).status).toBe(404);
    }
  });

  it('refuses a corridor outside 1 to 25 miles, a bad cursor or limit with a clear 400', async () => {
    const r = await driverWithRide();
    for (const corridor of ['0', '26', 'abc', '', '0.5', '1e9']) {
      for (const path of ['along-route', 'along-route/count']) {
        const res = await call('GET', `/rides/${r.ride.id}/${path}?corridor=${corridor}`, { cookie: r.driver.token });
        expect(res.status, `${path} corridor=${corridor}`).toBe(400);
        expect(res.body).toEqual({ code: 'validation_error', message: CORRIDOR_MESSAGE });
      }
    }
    expect((await r.list('?corridor=1')).status).toBe(200);
    expect((await r.list('?corridor=25')).status).toBe(200);
    for (const cursor of ['abc', Buffer.from('["0","NaN","x"]').toString('base64url'), 'W10']) {
      const res = await r.list(`?cursor=${cursor}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: 'validation_error', message: INVALID_CURSOR_MESSAGE });
    }
    expect((await r.list('?limit=0')).status).toBe(400);
    expect((await r.list('?limit=51')).status).toBe(400);
  });

  it('answers 409 route_needs_places for a ride whose origin or destination is free text', async () => {
    const driver = await signUpAndIn();
    const ride = await postRide(driver.token, null, null);
    for (const path of ['along-route', 'along-route/count']) {
      const res = await call('GET', `/rides/${ride.id}/${path}`, { cookie: driver.token });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ code: 'route_needs_places', message: ROUTE_NEEDS_PLACES });
    }
  });
});
