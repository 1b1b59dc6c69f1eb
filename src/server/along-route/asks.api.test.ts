import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { AlongRoutePage } from '../../shared/along-route';
import { MARKETPLACE_ERRORS, type DeliveryRequest } from '../../shared/marketplace';
import { MESSAGING_ERRORS } from '../../shared/messages';
import type { Notification } from '../../shared/notifications';
import { OWN_RIDE_MESSAGE, type RideAsk } from '../../shared/places';
import { alongRoutePath } from '../../shared/routes';
import { notifications, rideAsks, rides } from '../db/schema';
import { setupTestApp } from '../test/harness';
import type { PageBody } from '../test/marketplace';
import { pointOnRide, routeHelpers } from '../test/route';

const { ctx, call, signUpAndIn } = setupTestApp({ AUTH_PER_IP_MAX: '100000' });
const { postRide, postRequest } = routeHelpers(() => ctx.database.db, call);

let band = 0;
async function setup() {
  band += 1;
  const origin = { lat: 26 + 2 * band, lon: -95 };
  const destination = { lat: 26 + 2 * band + 0.2, lon: -94.6 };
  const at = (along: number, offset = 0) => pointOnRide(origin, destination, along, offset);
  const driver = await signUpAndIn('Dana Driver');
  const requester = await signUpAndIn('Rae Requester');
  const ride = await postRide(driver.token, origin, destination);
  const ask = (token: string, requestId: string, rideId = ride.id) =>
    call<RideAsk>('POST', `/rides/${rideId}/asks`, { cookie: token, body: { request_id: requestId } });
  const along = async () =>
    (await call<AlongRoutePage>('GET', `/rides/${ride.id}/along-route`, { cookie: driver.token })).body.items;
  const inbox = async (token: string) =>
    (await call<PageBody<Notification>>('GET', '/notifications', { cookie: token })).body.items;
  return { driver, requester, ride, at, ask, along, inbox };
}

describe('POST /rides/:id/asks', () => {
  it("notifies the driver once, lists the request first marked 'asked', and answers a repeat with the same ask", async () => {
    const s = await setup();
    const near = await postRequest(s.requester.token, s.at(1), s.at(10), { title: 'Near the line' });
    const asked = await postRequest(s.requester.token, s.at(2, 4), s.at(10, 4), { title: 'Hay bales' });
    expect((await s.along()).map((i) => i.id)).toEqual([near.id, asked.id]); // by detour: the line first

    const first = await s.ask(s.requester.token, asked.id);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ ride_id: s.ride.id, request_id: asked.id });
    const items = await s.along();
    expect(items.map((i) => [i.id, i.asked])).toEqual([
      [asked.id, true],
      [near.id, false],
    ]);
    const [notice, ...rest] = await s.inbox(s.driver.token);
    expect(rest).toEqual([]);
    expect(notice).toMatchObject({
      type: 'ride_ask',
      text: 'Rae Requester asked you to carry “Hay bales” on your ride.',
      link: alongRoutePath(s.ride.id),
    });
    const [stored] = await ctx.database.db.select().from(notifications).where(eq(notifications.id, notice!.id));
    expect(stored!.data).toEqual({
      actor_name: 'Rae Requester',
      title: 'Hay bales',
      ride_id: s.ride.id,
      request_id: asked.id,
    });

    const again = await s.ask(s.requester.token, asked.id);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await s.inbox(s.driver.token)).toHaveLength(1);
    expect(await ctx.database.db.select().from(rideAsks).where(eq(rideAsks.rideId, s.ride.id))).toHaveLength(1);
  });

  it('lists an asked request even off the corridor or without places, first, and Accept takes it off the list', async () => {
    const s = await setup();
    const far = await postRequest(s.requester.token, s.at(1, 30), s.at(10, 30), { title: 'Far away' });
    const freeText = await postRequest(s.requester.token, null, null, { title: 'Farm road' });
    expect(await s.along()).toEqual([]);
    expect((await s.ask(s.requester.token, far.id)).status).toBe(201);
    expect((await s.ask(s.requester.token, freeText.id)).status).toBe(201);
    const items = await s.along();
    expect(items.map((i) => [i.title, i.asked])).toEqual([
      ['Far away', true],
      ['Farm road', true],
    ]);
    expect(items[0]!.detour_miles).toBeGreaterThan(40);
    expect(items[1]!.detour_miles).toBeNull();

    const offer = await call('POST', '/bookings', { cookie: s.driver.token, body: { request_id: far.id } });
    expect(offer.status).toBe(201);
    expect((await s.along()).map((i) => i.id)).toEqual([freeText.id]);
  });

  it('pages across the asked and the other requests without repeats', async () => {
    const s = await setup();
    const posted: DeliveryRequest[] = [];
    for (let k = 0; k < 5; k++) posted.push(await postRequest(s.requester.token, s.at(1, k / 2), s.at(9, k / 2)));
    for (const k of [3, 1]) expect((await s.ask(s.requester.token, posted[k]!.id)).status).toBe(201);
    const seen: string[] = [];
    let cursor = '';
    for (;;) {
      const page = await call<AlongRoutePage>(
        'GET',
        `/rides/${s.ride.id}/along-route?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
        { cookie: s.driver.token },
      );
      seen.push(...page.body.items.map((i) => i.id));
      if (!page.body.next_cursor) break;
      cursor = page.body.next_cursor;
    }
    // Asked first (by their detour: offsets 0.5 then 1.5), then the rest by detour.
    expect(seen).toEqual([1, 3, 0, 2, 4].map((k) => posted[k]!.id));
  });

  it('refuses my own ride, a request not mine or not open, unknown rides, and blocked people', async () => {
    const s = await setup();
    const mine = await postRequest(s.requester.token, s.at(1), s.at(5));
    const driversOwn = await postRequest(s.driver.token, s.at(1), s.at(5));
    const own = await s.ask(s.driver.token, driversOwn.id);
    expect(own.status).toBe(409);
    expect(own.body).toEqual({ code: 'own_ride', message: OWN_RIDE_MESSAGE });

    const unavailable = { code: 'request_unavailable', message: MARKETPLACE_ERRORS.request_unavailable.message };
    const stranger = await signUpAndIn();
    expect(await s.ask(stranger.token, mine.id)).toMatchObject({ status: 409, body: unavailable });
    const deleted = await postRequest(s.requester.token, s.at(1), s.at(5));
    await call('DELETE', `/requests/${deleted.id}`, { cookie: s.requester.token });
    expect(await s.ask(s.requester.token, deleted.id)).toMatchObject({ status: 409, body: unavailable });
    const unknownRequest = '00000000-0000-4000-8000-000000000000';
    expect(await s.ask(s.requester.token, unknownRequest)).toMatchObject({ status: 409, body: unavailable });

    const notFound = { code: 'not_found', message: 'Ride not found.' };
    expect(await s.ask(s.requester.token, mine.id, unknownRequest)).toMatchObject({ status: 404, body: notFound });
    expect(await s.ask(s.requester.token, mine.id, 'abc')).toMatchObject({ status: 404, body: notFound });
    const past = await postRide(s.driver.token, s.at(0), s.at(5));
    await ctx.database.db.update(rides).set({ departureDate: '2020-01-01' }).where(eq(rides.id, past.id));
    expect(await s.ask(s.requester.token, mine.id, past.id)).toMatchObject({ status: 404, body: notFound });
    const done = await postRide(s.driver.token, s.at(0), s.at(5));
    await ctx.database.db.update(rides).set({ status: 'completed' }).where(eq(rides.id, done.id));
    expect(await s.ask(s.requester.token, mine.id, done.id)).toMatchObject({ status: 404, body: notFound });

    for (const body of [{}, { request_id: 'nope' }, { request_id: 5 }]) {
      const res = await call('POST', `/rides/${s.ride.id}/asks`, { cookie: s.requester.token, body });
      expect(res).toMatchObject({ status: 400, body: { code: 'validation_error', message: 'Invalid request ID' } });
    }
    expect((await call('POST', `/rides/${s.ride.id}/asks`, { body: { request_id: mine.id } })).status).toBe(401);

    expect(
      (await call('POST', '/blocks', { cookie: s.driver.token, body: { user_id: s.requester.user.id } })).status,
    ).toBe(201);
    const blocked = await s.ask(s.requester.token, mine.id);
    expect(blocked).toMatchObject({
      status: 403,
      body: { code: 'blocked', message: MESSAGING_ERRORS.blocked.message },
    });
    expect(await s.inbox(s.driver.token)).toEqual([]);
  });
});
