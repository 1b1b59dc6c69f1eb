import { describe, expect, it } from 'vitest';
import { frameOf, MILES_PER_DEGREE, type Point } from '../along-route/geometry';
import type { Notification } from '../../shared/notifications';
import { setupTestApp } from '../test/harness';
import type { PageBody } from '../test/marketplace';
import { setPlan } from '../test/plans';
import { pointOnRide, routeHelpers } from '../test/route';

// Route alerts on a ride with stops (issue 38): 'Tell me about new requests along this route' follows each leg.
const { ctx, call, signUpAndIn } = setupTestApp({ AUTH_PER_IP_MAX: '100000' });
const { postRide, newRequestAt, stopsAt } = routeHelpers(() => ctx.database.db, call);

const matches = async (token: string) =>
  (await call<PageBody<Notification>>('GET', '/notifications', { cookie: token })).body.items.filter(
    (n) => n.type === 'search_match',
  );
const matchedCount = async (token: string) => {
  const [notice] = await matches(token);
  if (!notice) return 0;
  return notice.text.startsWith('A new request') ? 1 : Number(notice.text.split(' ')[0]);
};

/** Each test its own band: origin and destination on one parallel, the stop 20 miles north of their midpoint. */
let band = 0;
function geometry() {
  band += 1;
  const lat = 28 + 2 * band;
  const origin = { lat, lon: -95 };
  const destination = { lat, lon: -94 };
  const stop = { lat: lat + 20 / MILES_PER_DEGREE, lon: -94.5 };
  const onLeg = (a: Point, b: Point, fraction: number) => pointOnRide(a, b, frameOf(a, b).length * fraction);
  return {
    origin,
    destination,
    stop,
    leg1: (f: number) => onLeg(origin, stop, f),
    leg2: (f: number) => onLeg(stop, destination, f),
    straight: (f: number) => onLeg(origin, destination, f),
  };
}

async function driverAndAsker() {
  const [dana, ben] = [await signUpAndIn('Dana'), await signUpAndIn('Ben')];
  await setPlan(ctx.database.db, dana.user.id, 'plus');
  return { dana, ben };
}

describe('route alerts along a ride with stops', () => {
  it('a new request along a leg notifies the driver; one along the straight line or backwards across legs does not', async () => {
    const g = geometry();
    const { dana, ben } = await driverAndAsker();
    const ride = await postRide(dana.token, g.origin, g.destination, { stops: await stopsAt(g.stop) });
    expect((await call('POST', `/rides/${ride.id}/alert`, { cookie: dana.token })).status).toBe(201);

    await newRequestAt(ben.user.id, g.straight(0.2), g.straight(0.8)); // far from both legs
    await newRequestAt(ben.user.id, g.leg2(0.5), g.leg1(0.5)); // leg 2 back to leg 1
    await newRequestAt(ben.user.id, g.leg2(0.8), g.leg2(0.2)); // against the direction on leg 2
    expect(await matchedCount(dana.token)).toBe(0);

    await newRequestAt(ben.user.id, g.leg2(0.2), g.leg2(0.8));
    expect(await matchedCount(dana.token)).toBe(1);
    await newRequestAt(ben.user.id, g.leg1(0.5), g.leg2(0.5));
    expect(await matchedCount(dana.token)).toBe(2);
  });

  it("follows the ride's edited stops: the alert's box grows to the new legs, and back", async () => {
    const g = geometry();
    const { dana, ben } = await driverAndAsker();
    const ride = await postRide(dana.token, g.origin, g.destination);
    expect((await call('POST', `/rides/${ride.id}/alert`, { cookie: dana.token })).status).toBe(201);
    const setStops = async (stops: unknown[]) =>
      expect((await call('PUT', `/rides/${ride.id}/stops`, { cookie: dana.token, body: { stops } })).status).toBe(200);

    await newRequestAt(ben.user.id, g.leg2(0.2), g.leg2(0.8));
    expect(await matchedCount(dana.token)).toBe(0);

    await setStops(await stopsAt(g.stop));
    // Leg 2 lies 10 miles north of the straight line: outside the box the alert was made with.
    await newRequestAt(ben.user.id, g.leg2(0.2), g.leg2(0.8));
    expect(await matchedCount(dana.token)).toBe(1);
    await newRequestAt(ben.user.id, g.straight(0.2), g.straight(0.8));
    expect(await matchedCount(dana.token)).toBe(1);

    await setStops([]);
    await newRequestAt(ben.user.id, g.leg2(0.2), g.leg2(0.8));
    expect(await matchedCount(dana.token)).toBe(1);
    await newRequestAt(ben.user.id, g.straight(0.2), g.straight(0.8));
    expect(await matchedCount(dana.token)).toBe(2);
  });
});
