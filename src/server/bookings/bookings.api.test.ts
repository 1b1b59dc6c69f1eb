import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Booking, DeliveryRequest } from '../../shared/marketplace';
import { bookings, deliveryRequests } from '../db/schema';
import { setupTestApp } from '../test/harness';
import { countRows, requestBody, tick, type PageBody } from '../test/marketplace';

// Many accounts per file: lift the per-address sign-in limit (its own tests live in the auth suite).
const { ctx, call, signUpAndIn } = setupTestApp({ AUTH_PER_IP_MAX: '100000' });

/** One account for the tests that only need "a signed-in user": sign-ups are the slow part of this file. */
let shared: ReturnType<typeof signUpAndIn> | undefined;
const sharedUser = () => (shared ??= signUpAndIn());

async function openRequest(token: string, title = 'Feed from the co-op') {
  const res = await call<DeliveryRequest>('POST', '/requests', { cookie: token, body: requestBody({ title }) });
  if (res.status !== 201) throw new Error(`request not created: ${res.status}`);
  return res.body;
}

describe('POST /bookings (accept)', () => {
  it('marks the request as accepted by me in my browse list only, so the card stops offering Accept', async () => {
    const owner = await signUpAndIn('Olive Owner');
    const driver = await signUpAndIn('Dan Driver');
    const other = await signUpAndIn('Otto Other');
    const req = await openRequest(owner.token, 'Accepted-flag request');
    const flag = async (token: string) => {
      const res = await call<PageBody<DeliveryRequest>>('GET', '/requests/browse?limit=50', { cookie: token });
      return res.body.items.find((r) => r.id === req.id)?.accepted_by_me;
    };
    expect(await flag(driver.token)).toBe(false);
    expect((await call('POST', '/bookings', { cookie: driver.token, body: { request_id: req.id } })).status).toBe(201);
    expect(await flag(driver.token)).toBe(true);
    expect(await flag(other.token)).toBe(false);
    expect(await flag(owner.token)).toBe(false);
  });

  it("creates a 'pending' booking with the session user as driver, ignoring driver_id and status", async () => {
    const owner = await signUpAndIn('Olive Owner');
    const driver = await signUpAndIn('Dan Driver');
    const req = await openRequest(owner.token);
    const res = await call<Booking>('POST', '/bookings', {
      cookie: driver.token,
      body: { request_id: req.id, driver_id: owner.user.id, status: 'completed' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      request_id: req.id,
      status: 'pending',
      request: {
        title: 'Feed from the co-op',
        pickup_location: 'Harwood Co-op',
        delivery_location: 'Millbrook Farm',
        requester_name: 'Olive Owner',
      },
    });
    const [row] = await ctx.database.db.select().from(bookings).where(eq(bookings.id, res.body.id));
    expect(row).toMatchObject({ driverId: driver.user.id, requestId: req.id, status: 'pending' });
    // The request stays open for other drivers (docs/decisions/006-accept-keeps-request-open.md).
    const [request] = await ctx.database.db.select().from(deliveryRequests).where(eq(deliveryRequests.id, req.id));
    expect(request?.status).toBe('open');
  });

  it('lets several drivers accept the same request, but each only once', async () => {
    const owner = await signUpAndIn();
    const d1 = await signUpAndIn();
    const d2 = await signUpAndIn();
    const req = await openRequest(owner.token);
    expect((await call('POST', '/bookings', { cookie: d1.token, body: { request_id: req.id } })).status).toBe(201);
    expect((await call('POST', '/bookings', { cookie: d2.token, body: { request_id: req.id } })).status).toBe(201);
    const again = await call('POST', '/bookings', { cookie: d1.token, body: { request_id: req.id } });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ code: 'already_accepted', message: "You've already accepted this request" });
    expect(await ctx.database.db.select().from(bookings).where(eq(bookings.requestId, req.id))).toHaveLength(2);
  });

  it('refuses my own request', async () => {
    const owner = await signUpAndIn();
    const req = await openRequest(owner.token);
    const res = await call('POST', '/bookings', { cookie: owner.token, body: { request_id: req.id } });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ code: 'own_request', message: "You can't accept your own request." });
    expect(await ctx.database.db.select().from(bookings).where(eq(bookings.requestId, req.id))).toEqual([]);
  });

  it('refuses a request that is unknown or no longer open', async () => {
    const owner = await signUpAndIn();
    const driver = await signUpAndIn();
    const req = await openRequest(owner.token);
    await ctx.database.db.update(deliveryRequests).set({ status: 'matched' }).where(eq(deliveryRequests.id, req.id));
    const before = await countRows(ctx.database.db, bookings);
    for (const id of [req.id, crypto.randomUUID()]) {
      const res = await call('POST', '/bookings', { cookie: driver.token, body: { request_id: id } });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ code: 'request_unavailable', message: 'This request is no longer available.' });
    }
    expect(await countRows(ctx.database.db, bookings)).toBe(before);
  });

  it.each([{}, { request_id: '' }, { request_id: 'abc' }, { request_id: 42 }, { request_id: null }])(
    'refuses the body %o with "Invalid request ID"',
    async (body) => {
      const driver = await sharedUser();
      const res = await call('POST', '/bookings', { cookie: driver.token, body });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: 'validation_error', message: 'Invalid request ID' });
    },
  );

  it('refuses a body that is not JSON', async () => {
    const driver = await signUpAndIn();
    const res = await call('POST', '/bookings', { cookie: driver.token, raw: '{"request_id":' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'malformed_json' });
  });
});

describe('GET /bookings/mine', () => {
  it('lists the bookings where I am the driver, newest first, with the request and its requester', async () => {
    const owner = await signUpAndIn('Olive Owner');
    const driver = await signUpAndIn('Dan Driver');
    const other = await signUpAndIn('Other Driver');
    const first = await openRequest(owner.token, 'first');
    const second = await openRequest(owner.token, 'second');
    await call('POST', '/bookings', { cookie: driver.token, body: { request_id: first.id } });
    await tick();
    await call('POST', '/bookings', { cookie: driver.token, body: { request_id: second.id } });
    await call('POST', '/bookings', { cookie: other.token, body: { request_id: first.id } });
    const res = await call<PageBody<Booking>>('GET', '/bookings/mine', { cookie: driver.token });
    expect(res.status).toBe(200);
    expect(res.body.items.map((b) => [b.request.title, b.request.requester_name, b.status])).toEqual([
      ['second', 'Olive Owner', 'pending'],
      ['first', 'Olive Owner', 'pending'],
    ]);
    // The requester is not the driver: their booking list stays empty.
    const ownerView = await call<PageBody<Booking>>('GET', '/bookings/mine', { cookie: owner.token });
    expect(ownerView.body).toEqual({ items: [], next_cursor: null });
  });

  it.each([
    ['GET', '/bookings/mine'],
    ['POST', '/bookings'],
  ])('%s %s answers 401 without a session and changes nothing', async (method, path) => {
    const before = await countRows(ctx.database.db, bookings);
    const res = await call(method, path, {
      body: method === 'POST' ? { request_id: crypto.randomUUID() } : undefined,
    });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: 'unauthenticated', message: 'Please sign in to continue.' });
    expect(await countRows(ctx.database.db, bookings)).toBe(before);
  });
});
