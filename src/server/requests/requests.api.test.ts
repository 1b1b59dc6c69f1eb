import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { earliestToday } from '../../shared/dates';
import type { Booking, DeliveryRequest } from '../../shared/marketplace';
import { bookings, deliveryRequests } from '../db/schema';
import { setupTestApp } from '../test/harness';
import { lifecycleHelpers } from '../test/lifecycle';
import { FUTURE, collectPages, countRows, requestBody, tick, type PageBody } from '../test/marketplace';
import { completeDelivery, seedReview } from '../test/reviews';

// Many accounts per file: lift the per-address sign-in limit (its own tests live in the auth suite).
const { ctx, call, signUpAndIn } = setupTestApp({ AUTH_PER_IP_MAX: '100000' });
const life = lifecycleHelpers(call, signUpAndIn);

/** One account for the tests that only need "a signed-in user": sign-ups are the slow part of this file. */
let shared: ReturnType<typeof signUpAndIn> | undefined;
const sharedUser = () => (shared ??= signUpAndIn());

const dayBefore = (iso: string) => new Date(Date.parse(`${iso}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

describe('POST /requests', () => {
  it('creates a request for the session user, ignoring user_id and status in the body', async () => {
    const a = await signUpAndIn('Rita Requester');
    const b = await signUpAndIn();
    const res = await call<DeliveryRequest>('POST', '/requests', {
      cookie: a.token,
      body: requestBody({ title: '  Feed  ', user_id: b.user.id, status: 'matched' }),
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      title: 'Feed',
      description: 'Two bags of layer pellets',
      pickup_location: 'Harwood Co-op',
      delivery_location: 'Millbrook Farm',
      needed_by_date: FUTURE,
      compensation: '12.50',
      status: 'open',
      requester_name: 'Rita Requester',
      requester_id: a.user.id,
      requester_rating: { count: 0, average: null },
      is_own: true,
    });
    const [row] = await ctx.database.db.select().from(deliveryRequests).where(eq(deliveryRequests.id, res.body.id));
    expect(row).toMatchObject({ userId: a.user.id, status: 'open', compensationCents: 1250 });
  });

  it.each([
    ['0', '0.00', 0],
    ['0.5', '0.50', 50],
    ['$7', '7.00', 700],
    [' 10000 ', '10000.00', 1_000_000],
    ['9999.99', '9999.99', 999_999],
    [12.25, '12.25', 1225],
    ['', null, null],
    [null, null, null],
  ])('stores compensation %o as money: answers %o, %o cents', async (input, answer, cents) => {
    const a = await signUpAndIn();
    const res = await call<DeliveryRequest>('POST', '/requests', {
      cookie: a.token,
      body: requestBody({ compensation: input, needed_by_date: '' }),
    });
    expect(res.status).toBe(201);
    expect(res.body.compensation).toBe(answer);
    expect(res.body.needed_by_date).toBeNull();
    const [row] = await ctx.database.db.select().from(deliveryRequests).where(eq(deliveryRequests.id, res.body.id));
    expect(row?.compensationCents).toBe(cents);
  });

  const moneyFormat = 'Compensation must be an amount like 12.50, with at most 2 decimal places';
  it.each([
    [{ title: '' }, 'Title is required'],
    [{ title: 't'.repeat(201) }, 'Title must be less than 200 characters'],
    [{ description: ' ' }, 'Description is required'],
    [{ description: 'd'.repeat(2001) }, 'Description must be less than 2000 characters'],
    [{ pickup_location: '' }, 'Pickup location is required'],
    [{ pickup_location: 'p'.repeat(501) }, 'Pickup location must be less than 500 characters'],
    [{ delivery_location: '' }, 'Delivery location is required'],
    [{ delivery_location: 'p'.repeat(501) }, 'Delivery location must be less than 500 characters'],
    [{ needed_by_date: dayBefore(earliestToday()) }, 'Needed-by date cannot be in the past'],
    [{ needed_by_date: '2099-13-01' }, 'Please enter a valid date'],
    [{ compensation: '12.345' }, moneyFormat],
    [{ compensation: '-1' }, moneyFormat],
    [{ compensation: 'abc' }, moneyFormat],
    [{ compensation: '1e3' }, moneyFormat],
    [{ compensation: -5 }, moneyFormat],
    [{ compensation: '10000.01' }, 'Compensation must be between 0 and 10,000'],
    [{ compensation: 99999 }, 'Compensation must be between 0 and 10,000'],
    [{ compensation: '250000' }, 'Compensation must be between 0 and 10,000'],
    [{ compensation: '1.5\u0000' }, moneyFormat],
    [{ title: 'a\u0000b' }, 'Text must not contain null characters'],
    [{ compensation: true }, 'Compensation must be an amount like 12.50'],
  ])('refuses %o with "%s" and stores nothing', async (patch, message) => {
    const a = await sharedUser();
    const before = await countRows(ctx.database.db, deliveryRequests);
    const res = await call('POST', '/requests', { cookie: a.token, body: requestBody(patch) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'validation_error', message });
    expect(await countRows(ctx.database.db, deliveryRequests)).toBe(before);
  });
});

describe('GET /requests/mine and /requests/browse', () => {
  it('lists my requests newest first and only mine', async () => {
    const a = await signUpAndIn('Ann');
    const b = await signUpAndIn('Bob');
    for (const title of ['one', 'two', 'three']) {
      await call('POST', '/requests', { cookie: a.token, body: requestBody({ title }) });
      await tick();
    }
    await call('POST', '/requests', { cookie: b.token, body: requestBody({ title: 'bob' }) });
    const res = await call<PageBody<DeliveryRequest>>('GET', '/requests/mine', { cookie: a.token });
    expect(res.status).toBe(200);
    expect(res.body.items.map((r) => r.title)).toEqual(['three', 'two', 'one']);
    expect(res.body.items.every((r) => r.is_own && r.requester_name === 'Ann')).toBe(true);
  });

  it('browses every open request newest first with the requester name, skipping closed and deleted ones', async () => {
    const a = await signUpAndIn('Browse Ann');
    const b = await signUpAndIn('Browse Bob');
    const closed = await call<DeliveryRequest>('POST', '/requests', {
      cookie: a.token,
      body: requestBody({ title: 'closed' }),
    });
    await ctx.database.db
      .update(deliveryRequests)
      .set({ status: 'matched' })
      .where(eq(deliveryRequests.id, closed.body.id));
    await tick();
    await call('POST', '/requests', { cookie: a.token, body: requestBody({ title: 'ann open' }) });
    await tick();
    const gone = await call<DeliveryRequest>('POST', '/requests', {
      cookie: a.token,
      body: requestBody({ title: 'deleted' }),
    });
    await call('DELETE', `/requests/${gone.body.id}`, { cookie: a.token });
    await tick();
    await call('POST', '/requests', { cookie: b.token, body: requestBody({ title: 'bob open' }) });

    const { items } = await collectPages((cursor) =>
      call<PageBody<DeliveryRequest>>('GET', `/requests/browse${cursor ? `?cursor=${cursor}` : ''}`, {
        cookie: b.token,
      }),
    );
    const seen = items.filter((r) => ['closed', 'ann open', 'deleted', 'bob open'].includes(r.title));
    expect(seen.map((r) => [r.title, r.requester_name, r.requester_id, r.is_own])).toEqual([
      ['bob open', 'Browse Bob', b.user.id, true],
      ['ann open', 'Browse Ann', a.user.id, false],
    ]);
    expect(items.every((r) => r.status === 'open')).toBe(true);
    // The owner still sees a closed request in their own list; a deleted one is gone.
    const mine = await call<PageBody<DeliveryRequest>>('GET', '/requests/mine', { cookie: a.token });
    expect(mine.body.items.map((r) => r.title)).toEqual(['ann open', 'closed']);
  });
});

describe("the requester's rating on request cards", () => {
  it("shows each requester's published rating and count, or a new member, in browse, in mine and on the new request", async () => {
    const rated = await signUpAndIn('Rated Requester');
    const fresh = await signUpAndIn('Fresh Requester');
    const driver = await signUpAndIn('Card Driver');
    // Drivers who delivered to Rated rate 2 and 3; Rated's own review of a driver says nothing about Rated.
    for (const rating of [2, 3]) {
      const booking = await completeDelivery(life, rated, await signUpAndIn());
      await seedReview(ctx.database.db, booking, { by: 'driver', rating });
      await seedReview(ctx.database.db, booking, { by: 'requester', rating: 5 });
    }
    const expected = { count: 2, average: 2.5 };
    const posted = await call<DeliveryRequest>('POST', '/requests', {
      cookie: rated.token,
      body: requestBody({ title: 'rated card' }),
    });
    expect(posted.body.requester_rating).toEqual(expected);
    await tick();
    await call('POST', '/requests', { cookie: fresh.token, body: requestBody({ title: 'fresh card' }) });

    const { items } = await collectPages((cursor) =>
      call<PageBody<DeliveryRequest>>('GET', `/requests/browse?limit=50${cursor ? `&cursor=${cursor}` : ''}`, {
        cookie: driver.token,
      }),
    );
    const cards = items.filter((r) => r.title === 'rated card' || r.title === 'fresh card');
    expect(cards.map((r) => [r.title, r.requester_id, r.requester_rating])).toEqual([
      ['fresh card', fresh.user.id, { count: 0, average: null }],
      ['rated card', rated.user.id, expected],
    ]);
    const mine = await call<PageBody<DeliveryRequest>>('GET', '/requests/mine', { cookie: rated.token });
    expect(new Set(mine.body.items.map((r) => JSON.stringify(r.requester_rating)))).toEqual(
      new Set([JSON.stringify(expected)]),
    );
  });
});

describe('DELETE /requests/:id', () => {
  it('removes my request from every list and keeps pending offers visible to their drivers as declined', async () => {
    const a = await signUpAndIn('Ann Owner');
    const driver = await signUpAndIn('Dan Driver');
    const req = await call<DeliveryRequest>('POST', '/requests', { cookie: a.token, body: requestBody() });
    const accepted = await call<Booking>('POST', '/bookings', {
      cookie: driver.token,
      body: { request_id: req.body.id },
    });
    expect(accepted.status).toBe(201);

    const res = await call('DELETE', `/requests/${req.body.id}`, { cookie: a.token });
    expect(res.status).toBe(204);
    const mine = await call<PageBody<DeliveryRequest>>('GET', '/requests/mine', { cookie: a.token });
    expect(mine.body.items.find((r) => r.id === req.body.id)).toBeUndefined();
    const bookingsOfDriver = await call<PageBody<Booking>>('GET', '/bookings/mine', { cookie: driver.token });
    expect(bookingsOfDriver.body.items).toEqual([
      {
        ...accepted.body,
        status: 'declined',
      },
    ]);
    expect(bookingsOfDriver.body.items[0]?.request).toEqual({
      title: 'Feed from the co-op',
      pickup_location: 'Harwood Co-op',
      delivery_location: 'Millbrook Farm',
      requester_name: 'Ann Owner',
    });
    // A deleted request cannot be accepted, nor deleted again.
    const late = await signUpAndIn();
    const refused = await call('POST', '/bookings', { cookie: late.token, body: { request_id: req.body.id } });
    expect(refused.body).toEqual({ code: 'request_unavailable', message: 'This request is no longer available.' });
    expect((await call('DELETE', `/requests/${req.body.id}`, { cookie: a.token })).status).toBe(404);
  });

  it('keeps a completed booking completed when its request is deleted', async () => {
    const a = await signUpAndIn();
    const driver = await signUpAndIn();
    const req = await call<DeliveryRequest>('POST', '/requests', { cookie: a.token, body: requestBody() });
    const accepted = await call<Booking>('POST', '/bookings', {
      cookie: driver.token,
      body: { request_id: req.body.id },
    });
    await ctx.database.db
      .update(bookings)
      .set({ status: 'completed', endedAt: new Date() })
      .where(eq(bookings.id, accepted.body.id));
    await call('DELETE', `/requests/${req.body.id}`, { cookie: a.token });
    const [row] = await ctx.database.db.select().from(bookings).where(eq(bookings.id, accepted.body.id));
    expect(row?.status).toBe('completed');
  });

  it("answers 404 for another user's request and leaves it and its bookings unchanged", async () => {
    const a = await signUpAndIn();
    const b = await signUpAndIn();
    const driver = await signUpAndIn();
    const req = await call<DeliveryRequest>('POST', '/requests', { cookie: a.token, body: requestBody() });
    await call('POST', '/bookings', { cookie: driver.token, body: { request_id: req.body.id } });
    const [before] = await ctx.database.db.select().from(deliveryRequests).where(eq(deliveryRequests.id, req.body.id));
    const res = await call('DELETE', `/requests/${req.body.id}`, { cookie: b.token });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: 'not_found', message: 'Request not found.' });
    const [after] = await ctx.database.db.select().from(deliveryRequests).where(eq(deliveryRequests.id, req.body.id));
    expect(after).toEqual(before);
    const driverRows = await ctx.database.db.select().from(bookings).where(eq(bookings.requestId, req.body.id));
    expect(driverRows.map((r) => r.status)).toEqual(['pending']);
  });

  it.each(['nope', crypto.randomUUID()])('answers 404 for the id %s', async (id) => {
    const a = await signUpAndIn();
    const res = await call('DELETE', `/requests/${id}`, { cookie: a.token });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: 'not_found', message: 'Request not found.' });
  });
});

describe('private lists and sessions', () => {
  it("never shows user B user A's private lists", async () => {
    const a = await sharedUser();
    const b = await signUpAndIn();
    await call('POST', '/requests', { cookie: a.token, body: requestBody({ title: 'secret of A' }) });
    const res = await call<PageBody<DeliveryRequest>>('GET', '/requests/mine', { cookie: b.token });
    expect(res.body.items).toEqual([]);
  });

  it.each([
    ['GET', '/requests/mine'],
    ['GET', '/requests/browse'],
    ['POST', '/requests'],
    ['DELETE', `/requests/${crypto.randomUUID()}`],
  ])('%s %s answers 401 without a session and changes nothing', async (method, path) => {
    const before = await countRows(ctx.database.db, deliveryRequests);
    const res = await call(method, path, { body: method === 'POST' ? requestBody() : undefined });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: 'unauthenticated', message: 'Please sign in to continue.' });
    expect(await countRows(ctx.database.db, deliveryRequests)).toBe(before);
  });
});
