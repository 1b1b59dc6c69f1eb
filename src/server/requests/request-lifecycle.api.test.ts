import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { DeliveryRequest } from '../../shared/marketplace';
import { bookingEvents, bookings, deliveryRequests } from '../db/schema';
import { setupTestApp } from '../test/harness';
import { lifecycleHelpers } from '../test/lifecycle';
import type { PageBody } from '../test/marketplace';
import { completeDelivery, seedReview } from '../test/reviews';

const { ctx, call, signUpAndIn } = setupTestApp({ AUTH_PER_IP_MAX: '100000' });
const life = lifecycleHelpers(call, signUpAndIn);
const { act, request, story, confirmed, postRequest } = life;

const statusOf = async (id: string) =>
  (await ctx.database.db.select().from(deliveryRequests).where(eq(deliveryRequests.id, id)))[0]?.status;
const bookingsOf = (requestId: string) =>
  ctx.database.db.select().from(bookings).where(eq(bookings.requestId, requestId)).orderBy(bookings.createdAt);

describe('GET /requests/:id', () => {
  it("shows the owner the request's fields, no offers yet and no booking", async () => {
    const owner = await signUpAndIn('Ana Diaz');
    const req = await postRequest(owner.token, 'Fresh request');
    const res = await request(owner.token, req.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: req.id,
      title: 'Fresh request',
      description: req.description,
      pickup_location: req.pickup_location,
      delivery_location: req.delivery_location,
      needed_by_date: req.needed_by_date,
      compensation: '12.50',
      status: 'open',
      created_at: req.created_at,
      offers: [],
      booking: null,
      // What choosing a driver will cost: $12.50 for the driver, the 10% fee, test mode (docs/payments.md).
      payment_quote: {
        compensation_cents: 1250,
        fee_cents: 125,
        total_cents: 1375,
        credit_cents: 0,
        card_cents: 1375,
        // A Free requester: no plan waives the fee (issue 38).
        fee_waived_by: null,
        test_mode: true,
        provider: 'test',
        publishable_key: null,
      },
    });
  });

  it('keeps showing a completed request with its completed booking; a deleted one is 404', async () => {
    const c = await confirmed(1);
    await act(c.requester.token, c.bookingId, 'receive');
    const done = await request(c.requester.token, c.request.id);
    expect(done.body).toMatchObject({
      status: 'completed',
      offers: [],
      booking: { id: c.bookingId, status: 'completed', driver: { id: c.driver.user.id } },
    });
    expect((await call('DELETE', `/requests/${c.request.id}`, { cookie: c.requester.token })).status).toBe(204);
    expect((await request(c.requester.token, c.request.id)).status).toBe(404);
  });
});

describe("the driver's rating on each offer", () => {
  it("shows the owner each offering driver's published rating and count, or a new member", async () => {
    const s = await story(2, 'Who to choose');
    const [rated, fresh] = s.drivers;
    // Rated drove twice before: rated 5 and 5, and one review of them is not published yet.
    for (const rating of [5, 5, null]) {
      const booking = await completeDelivery(life, await signUpAndIn(), rated!);
      await seedReview(ctx.database.db, booking, {
        by: 'requester',
        rating: rating ?? 1,
        publishedAt: rating ? undefined : null,
      });
    }
    const res = await request(s.requester.token, s.request.id);
    expect(res.status).toBe(200);
    expect(res.body.offers).toEqual([
      {
        booking_id: s.offers[0]!.id,
        driver: { id: rated!.user.id, full_name: 'Driver 1', verified: false, ambassador: false },
        driver_rating: { count: 2, average: 5 },
        offered_at: s.offers[0]!.created_at,
      },
      {
        booking_id: s.offers[1]!.id,
        driver: { id: fresh!.user.id, full_name: 'Driver 2', verified: false, ambassador: false },
        driver_rating: { count: 0, average: null },
        offered_at: s.offers[1]!.created_at,
      },
    ]);
  });
});

describe('GET /requests/mine offer_count, browse without it', () => {
  it('counts pending offers only, in my list only', async () => {
    const s = await story(3, 'Counted');
    await act(s.requester.token, s.offers[0]!.id, 'decline');
    const empty = await postRequest(s.requester.token, 'No offers');
    const mine = await call<PageBody<DeliveryRequest>>('GET', '/requests/mine', { cookie: s.requester.token });
    const counts = Object.fromEntries(mine.body.items.map((r) => [r.title, r.offer_count]));
    expect(counts).toEqual({ Counted: 2, 'No offers': 0 });
    const browse = await call<PageBody<DeliveryRequest>>('GET', '/requests/browse?limit=50', {
      cookie: s.drivers[0]!.token,
    });
    const seen = browse.body.items.filter((r) => [s.request.id, empty.id].includes(r.id));
    expect(seen).toHaveLength(2);
    for (const r of seen) expect(r).not.toHaveProperty('offer_count');
  });

  it('browse shows open requests only: a matched one leaves it and comes back when its booking is cancelled', async () => {
    const c = await confirmed(2, 'Comes and goes');
    const visible = async () => {
      const browse = await call<PageBody<DeliveryRequest>>('GET', '/requests/browse?limit=50', {
        cookie: c.drivers[1]!.token,
      });
      return browse.body.items.some((r) => r.id === c.request.id);
    };
    expect(await visible()).toBe(false);
    await act(c.driver.token, c.bookingId, 'cancel', { reason: 'plans_changed' });
    expect(await visible()).toBe(true);
  });
});

describe('DELETE /requests/:id in the lifecycle', () => {
  it('is refused with 409 confirmed_booking_exists while a driver is chosen, and changes nothing', async () => {
    const c = await confirmed(2);
    const before = await bookingsOf(c.request.id);
    const res = await call('DELETE', `/requests/${c.request.id}`, { cookie: c.requester.token });
    expect(res).toMatchObject({
      status: 409,
      body: {
        code: 'confirmed_booking_exists',
        message: 'Cancel the confirmed booking before deleting this request.',
      },
    });
    expect(await statusOf(c.request.id)).toBe('matched');
    expect(await bookingsOf(c.request.id)).toEqual(before);
    // Once the booking is cancelled, the request can go.
    await act(c.requester.token, c.bookingId, 'cancel', { reason: 'item_not_ready' });
    expect((await call('DELETE', `/requests/${c.request.id}`, { cookie: c.requester.token })).status).toBe(204);
  });

  it("declines every pending offer with a 'request_withdrawn' event by the owner; other bookings are untouched", async () => {
    const s = await story(3);
    await act(s.drivers[2]!.token, s.offers[2]!.id, 'withdraw');
    expect((await call('DELETE', `/requests/${s.request.id}`, { cookie: s.requester.token })).status).toBe(204);
    expect((await bookingsOf(s.request.id)).map((b) => b.status)).toEqual(['declined', 'declined', 'cancelled']);
    const events = await ctx.database.db
      .select()
      .from(bookingEvents)
      .where(eq(bookingEvents.bookingId, s.offers[0]!.id))
      .orderBy(bookingEvents.id);
    expect(events.map((e) => [e.type, e.actorId, e.fromStatus, e.toStatus])).toEqual([
      ['offered', s.drivers[0]!.user.id, null, 'pending'],
      ['request_withdrawn', s.requester.user.id, 'pending', 'declined'],
    ]);
    const driverView = await call<{ status: string; actions: string[] }>('GET', `/bookings/${s.offers[0]!.id}`, {
      cookie: s.drivers[0]!.token,
    });
    expect(driverView.body).toMatchObject({ status: 'declined', actions: [] });
  });

  it('soft-deletes a completed request without touching its completed booking', async () => {
    const c = await confirmed(1);
    await act(c.requester.token, c.bookingId, 'receive');
    expect((await call('DELETE', `/requests/${c.request.id}`, { cookie: c.requester.token })).status).toBe(204);
    expect(await statusOf(c.request.id)).toBe('deleted');
    expect((await bookingsOf(c.request.id)).map((b) => b.status)).toEqual(['completed']);
  });
});
