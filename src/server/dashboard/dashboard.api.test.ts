import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Booking, Dashboard, DeliveryRequest, Ride } from '../../shared/marketplace';
import { bookings, deliveryRequests, rides } from '../db/schema';
import { setupTestApp } from '../test/harness';
import { lifecycleHelpers } from '../test/lifecycle';
import { FUTURE, requestBody, rideBody, tick } from '../test/marketplace';

const { ctx, call, signUpAndIn } = setupTestApp({ AUTH_PER_IP_MAX: '100000' });
const { act, complete, confirmed } = lifecycleHelpers(call, signUpAndIn);

describe('GET /dashboard', () => {
  it('shows zeros and no activity to a new user', async () => {
    const a = await signUpAndIn();
    const res = await call<Dashboard>('GET', '/dashboard', { cookie: a.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      stats: { active_rides: 0, open_requests: 0, total_bookings: 0, bookings_as_driver: 0, completed: 0 },
      activity: [],
    });
  });

  it('counts my upcoming active rides, open requests, bookings on either side and completed ones', async () => {
    const ann = await signUpAndIn('Ann Field');
    const bob = await signUpAndIn('Bob Lane');
    const cat = await signUpAndIn('Cat Hill');
    const db = ctx.database.db;

    await call<Ride>('POST', '/rides', { cookie: ann.token, body: rideBody({ origin: 'Millbrook' }) });
    await db.insert(rides).values([
      { userId: ann.user.id, origin: 'past', destination: 'd', departureDate: '2001-01-01' },
      { userId: ann.user.id, origin: 'cancelled', destination: 'd', departureDate: FUTURE, status: 'cancelled' },
    ]);
    await call('POST', '/rides', { cookie: bob.token, body: rideBody() });
    await tick();
    const open = await call<DeliveryRequest>('POST', '/requests', {
      cookie: ann.token,
      body: requestBody({ title: 'Feed' }),
    });
    await tick();
    const closed = await call<DeliveryRequest>('POST', '/requests', {
      cookie: ann.token,
      body: requestBody({ title: 'Closed one' }),
    });
    await tick();
    const catsRequest = await call<DeliveryRequest>('POST', '/requests', {
      cookie: cat.token,
      body: requestBody({ title: 'Hay bales' }),
    });
    await tick();
    // Bob accepts Ann's request; Ann accepts Cat's; Cat accepts Ann's closed one before it closed.
    await call('POST', '/bookings', { cookie: bob.token, body: { request_id: open.body.id } });
    await tick();
    const annsBooking = await call<Booking>('POST', '/bookings', {
      cookie: ann.token,
      body: { request_id: catsRequest.body.id },
    });
    await tick();
    await call('POST', '/bookings', { cookie: cat.token, body: { request_id: closed.body.id } });
    await db.update(deliveryRequests).set({ status: 'matched' }).where(eq(deliveryRequests.id, closed.body.id));
    await db
      .update(bookings)
      .set({ status: 'completed', endedAt: new Date() })
      .where(eq(bookings.id, annsBooking.body.id));

    const res = await call<Dashboard>('GET', '/dashboard', { cookie: ann.token });
    expect(res.status).toBe(200);
    expect(res.body.stats).toEqual({
      active_rides: 1,
      open_requests: 1,
      total_bookings: 3,
      bookings_as_driver: 1,
      completed: 1,
    });
    // Data only: the client words each event.
    expect(res.body.activity.slice(0, 5).map(({ id: _id, at: _at, ...event }) => event)).toEqual([
      { type: 'request_accepted', title: 'Closed one', driver_name: 'Cat Hill' },
      { type: 'booking_made', title: 'Hay bales', requester_name: 'Cat Hill' },
      { type: 'request_accepted', title: 'Feed', driver_name: 'Bob Lane' },
      { type: 'request_created', title: 'Closed one' },
      { type: 'request_created', title: 'Feed' },
    ]);
    // Then the three rides (two inserted directly, in the same millisecond range as the posted one).
    expect(res.body.activity.slice(5).map((e) => e.type)).toEqual(['ride_posted', 'ride_posted', 'ride_posted']);
    const times = res.body.activity.map((e) => e.at);
    expect([...times].sort().reverse()).toEqual(times);

    // Bob sees his own side only.
    const bobView = await call<Dashboard>('GET', '/dashboard', { cookie: bob.token });
    expect(bobView.body.stats).toEqual({
      active_rides: 1,
      open_requests: 0,
      total_bookings: 1,
      bookings_as_driver: 1,
      completed: 0,
    });
    expect(bobView.body.activity[0]).toMatchObject({
      type: 'booking_made',
      title: 'Feed',
      requester_name: 'Ann Field',
    });
  });

  it('keeps at most 10 events, newest first, and forgets deleted requests', async () => {
    const a = await signUpAndIn();
    for (let i = 1; i <= 12; i++) {
      await call('POST', '/rides', { cookie: a.token, body: rideBody({ origin: `Town ${i}` }) });
      await tick();
    }
    const req = await call<DeliveryRequest>('POST', '/requests', { cookie: a.token, body: requestBody() });
    await call('DELETE', `/requests/${req.body.id}`, { cookie: a.token });
    const res = await call<Dashboard>('GET', '/dashboard', { cookie: a.token });
    expect(res.body.activity).toHaveLength(10);
    expect(res.body.activity[0]).toMatchObject({ origin: 'Town 12', destination: 'Harwood Market' });
    expect(res.body.activity[9]).toMatchObject({ origin: 'Town 3', destination: 'Harwood Market' });
    expect(res.body.stats.open_requests).toBe(0);
  });

  it('answers 401 without a session', async () => {
    const res = await call('GET', '/dashboard');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: 'unauthenticated', message: 'Please sign in to continue.' });
  });
});

describe('GET /dashboard in the booking lifecycle', () => {
  const lifecycle = (d: Dashboard) =>
    d.activity.flatMap((a) =>
      a.type === 'booking_event' ? [[a.event, a.actor_name, a.mine, a.my_role, a.title] as const] : [],
    );

  it('both people count the booking and its completion; Recent Activity tells each their side of every step', async () => {
    const c = await confirmed(2, 'Feed sacks');
    await tick();
    await act(c.driver.token, c.bookingId, 'pickup');
    await tick();
    expect((await complete(c.driver.token, c.bookingId, c.code)).status).toBe(200);

    const driver = (await call<Dashboard>('GET', '/dashboard', { cookie: c.driver.token })).body;
    const requester = (await call<Dashboard>('GET', '/dashboard', { cookie: c.requester.token })).body;
    expect(driver.stats).toMatchObject({ total_bookings: 1, completed: 1 });
    expect(requester.stats).toMatchObject({ total_bookings: 2, bookings_as_driver: 0, completed: 1, open_requests: 0 });

    expect(lifecycle(driver)).toEqual([
      ['completed', 'Driver 1', true, 'driver', 'Feed sacks'],
      ['picked_up', 'Driver 1', true, 'driver', 'Feed sacks'],
      ['chosen', 'Ana Diaz', false, 'driver', 'Feed sacks'],
    ]);
    expect(lifecycle(requester)).toEqual([
      ['completed', 'Driver 1', false, 'requester', 'Feed sacks'],
      ['picked_up', 'Driver 1', false, 'requester', 'Feed sacks'],
      ['chosen', 'Ana Diaz', true, 'requester', 'Feed sacks'],
    ]);
    const chosen = driver.activity.find((a) => a.type === 'booking_event' && a.event === 'chosen');
    expect(chosen).toMatchObject({ booking_id: c.bookingId, id: expect.stringMatching(/^booking_event:\d+$/) });
    // The declined driver hears that another was chosen (no actor); the requester is not told that once per offer.
    const other = (await call<Dashboard>('GET', '/dashboard', { cookie: c.drivers[1]!.token })).body;
    expect(lifecycle(other)).toEqual([['other_chosen', null, false, 'driver', 'Feed sacks']]);
    expect(other.stats).toMatchObject({ total_bookings: 1, completed: 0 });
    const times = requester.activity.map((e) => e.at);
    expect([...times].sort().reverse()).toEqual(times);
  });
});

describe('OpenAPI document', () => {
  it('describes every marketplace endpoint', async () => {
    const res = await call<{ paths: Record<string, Record<string, unknown>> }>('GET', '/openapi.json');
    expect(res.status).toBe(200);
    const ops = Object.entries(res.body.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(ops).toEqual(
      expect.arrayContaining([
        'GET /rides/mine',
        'GET /rides/browse',
        'POST /rides',
        'DELETE /rides/{id}',
        'GET /requests/mine',
        'GET /requests/browse',
        'POST /requests',
        'DELETE /requests/{id}',
        'GET /bookings/mine',
        'POST /bookings',
        'GET /requests/{id}',
        'GET /bookings/{id}',
        'GET /bookings/{id}/photo',
        'POST /bookings/{id}/choose',
        'POST /bookings/{id}/decline',
        'POST /bookings/{id}/withdraw',
        'POST /bookings/{id}/cancel',
        'POST /bookings/{id}/pickup',
        'POST /bookings/{id}/complete',
        'POST /bookings/{id}/receive',
        'GET /dashboard',
      ]),
    );
  });
});
