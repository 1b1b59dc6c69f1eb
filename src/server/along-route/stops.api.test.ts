import { describe, expect, it } from 'vitest';
import type { AlongRoutePage } from '../../shared/along-route';
import type { Ride } from '../../shared/marketplace';
import { setupTestApp } from '../test/harness';
import { setPlan } from '../test/plans';
import { pointOnRide, routeHelpers } from '../test/route';
import { frameOf, MILES_PER_DEGREE, type Point } from './geometry';

// Along the route with stops (issue 38): the route is origin -> stops -> destination, each leg its own corridor.
const { ctx, call, signUpAndIn } = setupTestApp({ AUTH_PER_IP_MAX: '100000' });
const { postRide, postRequest, stopsAt } = routeHelpers(() => ctx.database.db, call);

/** The added miles of going from a to b through p, in the leg's frame (as the SQL measures it). */
function insertion(a: Point, b: Point, p: Point) {
  const f = frameOf(a, b);
  const [x, y] = [(p.lon - a.lon) * f.kx, (p.lat - a.lat) * MILES_PER_DEGREE];
  return Math.hypot(x, y) + Math.hypot(f.dx - x, f.dy - y) - f.length;
}

/**
 * Each test its own band of latitude. Origin and destination 1° of longitude apart on one parallel; the stop 20
 * miles north of their midpoint, so the legs origin -> stop -> destination run far from the straight line.
 */
let band = 0;
function geometry() {
  band += 1;
  const lat = 27 + 2 * band;
  const origin = { lat, lon: -91 };
  const destination = { lat, lon: -90 };
  const stop = { lat: lat + 20 / MILES_PER_DEGREE, lon: -90.5 };
  const onLeg = (a: Point, b: Point, fraction: number, offset = 0) =>
    pointOnRide(a, b, frameOf(a, b).length * fraction, offset);
  return {
    origin,
    destination,
    stop,
    leg1: (fraction: number, offset = 0) => onLeg(origin, stop, fraction, offset),
    leg2: (fraction: number, offset = 0) => onLeg(stop, destination, fraction, offset),
    straight: (fraction: number) => onLeg(origin, destination, fraction),
  };
}

async function plusDriver() {
  const driver = await signUpAndIn('Dana Driver');
  await setPlan(ctx.database.db, driver.user.id, 'plus');
  return driver;
}

const alongIds = async (token: string, ride: Ride) => {
  const res = await call<AlongRoutePage>('GET', `/rides/${ride.id}/along-route`, { cookie: token });
  expect(res.status).toBe(200);
  const count = await call<{ count: number }>('GET', `/rides/${ride.id}/along-route/count`, { cookie: token });
  expect(count.body.count).toBe(res.body.items.length);
  return res.body;
};

describe('GET /rides/:id/along-route with stops', () => {
  it('follows each leg: a request along stop -> destination matches the ride with the stop, not the same ride without', async () => {
    const g = geometry();
    const withStop = await plusDriver();
    const without = await plusDriver();
    const asker = await signUpAndIn('Rae Requester');
    const ride = await postRide(withStop.token, g.origin, g.destination, { stops: await stopsAt(g.stop) });
    const plain = await postRide(without.token, g.origin, g.destination);
    expect(ride.stops).toHaveLength(1);

    const onLeg2 = await postRequest(asker.token, g.leg2(0.3, 2), g.leg2(0.9, -1), { title: 'On leg 2' });
    const acrossLegs = await postRequest(asker.token, g.leg1(0.5, 1), g.leg2(0.5), { title: 'Leg 1 to leg 2' });
    const backwards = await postRequest(asker.token, g.leg2(0.5), g.leg1(0.5), { title: 'Leg 2 back to leg 1' });
    const onStraight = await postRequest(asker.token, g.straight(0.3), g.straight(0.7), { title: 'Straight line' });

    const routed = await alongIds(withStop.token, ride);
    expect(routed.items.map((i) => i.id).sort()).toEqual([onLeg2.id, acrossLegs.id].sort());
    const straight = await alongIds(without.token, plain);
    expect(straight.items.map((i) => i.id)).toEqual([onStraight.id]);
    expect(straight.items.map((i) => i.id)).not.toContain(backwards.id);

    // The detour is the cheapest fit of pickup then delivery into the legs: each on its own leg here.
    const across = routed.items.find((i) => i.id === acrossLegs.id)!;
    const expected = insertion(g.origin, g.stop, g.leg1(0.5, 1)) + insertion(g.stop, g.destination, g.leg2(0.5));
    expect(across.detour_miles).toBeCloseTo(expected, 6);
    expect(across.detour_miles).toBeGreaterThan(0);
  });

  it('keeps the direction on one leg, and skips a stop typed as free text', async () => {
    const g = geometry();
    const driver = await plusDriver();
    const asker = await signUpAndIn();
    const ride = await postRide(driver.token, g.origin, g.destination, { stops: await stopsAt(g.stop) });
    const textStop = await postRide(driver.token, g.origin, g.destination, { stops: await stopsAt('Miller farm') });
    const forward = await postRequest(asker.token, g.leg2(0.2), g.leg2(0.8));
    await postRequest(asker.token, g.leg2(0.8), g.leg2(0.2));
    const straight = await postRequest(asker.token, g.straight(0.2), g.straight(0.8));

    expect((await alongIds(driver.token, ride)).items.map((i) => i.id)).toEqual([forward.id]);
    expect(textStop.stops).toEqual([{ label: 'Miller farm', point: null }]);
    expect((await alongIds(driver.token, textStop)).items.map((i) => i.id)).toEqual([straight.id]);
  });

  it('follows edited stops', async () => {
    const g = geometry();
    const driver = await plusDriver();
    const asker = await signUpAndIn();
    const ride = await postRide(driver.token, g.origin, g.destination);
    const onLeg2 = await postRequest(asker.token, g.leg2(0.2), g.leg2(0.8));
    const onStraight = await postRequest(asker.token, g.straight(0.2), g.straight(0.8));
    expect((await alongIds(driver.token, ride)).items.map((i) => i.id)).toEqual([onStraight.id]);
    const put = await call('PUT', `/rides/${ride.id}/stops`, {
      cookie: driver.token,
      body: { stops: await stopsAt(g.stop) },
    });
    expect(put.status).toBe(200);
    expect((await alongIds(driver.token, ride)).items.map((i) => i.id)).toEqual([onLeg2.id]);
  });
});
