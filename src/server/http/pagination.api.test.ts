import { describe, expect, it } from 'vitest';
import type { Booking, DeliveryRequest, Ride } from '../../shared/marketplace';
import { INVALID_CURSOR_MESSAGE } from '../../shared/marketplace';
import { bookings, deliveryRequests, rides } from '../db/schema';
import { setupTestApp } from '../test/harness';
import { collectPages, type PageBody } from '../test/marketplace';
import { encodeCursor } from '../db/cursor';

const { ctx, call, signUpAndIn } = setupTestApp({ AUTH_PER_IP_MAX: '100000' });

/** One account for the tests that only need "a signed-in user": sign-ups are the slow part of this file. */
let shared: ReturnType<typeof signUpAndIn> | undefined;
const sharedUser = () => (shared ??= signUpAndIn());

const DATES = ['2099-03-01', '2099-03-02', '2099-03-03'];
const TIMES = [null, '08:00:00', '08:00:00', '09:30:00'];
const INSTANTS = ['2026-01-01T10:00:00.000Z', '2026-01-01T10:00:00.001Z', '2026-01-02T00:00:00.000Z'].map(
  (s) => new Date(s),
);

const byRideOrder = (a: Ride, b: Ride) =>
  a.departure_date.localeCompare(b.departure_date) ||
  (a.departure_time ?? '24:00').localeCompare(b.departure_time ?? '24:00') ||
  a.id.localeCompare(b.id);
const newestFirst = (a: { created_at: string; id: string }, b: { created_at: string; id: string }) =>
  b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id);

function pager<T>(path: string, token: string, limit?: number, extra: Record<string, string> = {}) {
  return (cursor: string | null) => {
    const qs = new URLSearchParams(extra);
    if (limit) qs.set('limit', String(limit));
    if (cursor) qs.set('cursor', cursor);
    return call<PageBody<T>>('GET', `${path}?${qs}`, { cookie: token });
  };
}

function expectSameOrdered<T extends { id: string }>(items: T[], compare: (a: T, b: T) => number) {
  expect(new Set(items.map((i) => i.id)).size).toBe(items.length);
  expect(items.map((i) => i.id)).toEqual([...items].sort(compare).map((i) => i.id));
}

describe('keyset pagination', () => {
  it('pages through rides (mine and browse) with ties on date and time, without duplicates or gaps', async () => {
    const a = await signUpAndIn('Pager');
    const b = await signUpAndIn('Other');
    const mk = (userId: string, i: number, status = 'active') => ({
      userId,
      origin: `o${i}`,
      destination: 'd',
      departureDate: DATES[i % DATES.length] ?? '2099-03-01',
      departureTime: TIMES[i % TIMES.length] ?? null,
      status,
    });
    await ctx.database.db
      .insert(rides)
      .values([
        ...Array.from({ length: 45 }, (_, i) => mk(a.user.id, i)),
        ...Array.from({ length: 30 }, (_, i) => mk(b.user.id, i)),
        ...Array.from({ length: 5 }, (_, i) => mk(b.user.id, i, 'cancelled')),
      ]);

    for (const limit of [undefined, 7, 1, 50]) {
      const mine = await collectPages(pager<Ride>('/rides/mine', a.token, limit));
      expect(mine.items).toHaveLength(45);
      expectSameOrdered(mine.items, byRideOrder);
      // Rows are fetched with limit + 1, so the last page says it is the last: never an empty trailing page.
      expect(mine.pages).toBe(Math.ceil(45 / (limit ?? 20)));
    }
    const browse = await collectPages(pager<Ride>('/rides/browse', b.token, 8));
    expect(browse.items).toHaveLength(75);
    expectSameOrdered(browse.items, byRideOrder);
    expect(browse.items.filter((r) => r.is_own)).toHaveLength(30);
  });

  it('pages through requests (mine and browse) and bookings newest first, with ties on created_at', async () => {
    const a = await signUpAndIn('Requester');
    const driver = await signUpAndIn('Driver');
    const requestRows = await ctx.database.db
      .insert(deliveryRequests)
      .values(
        Array.from({ length: 41 }, (_, i) => ({
          userId: a.user.id,
          title: `t${i}`,
          description: 'd',
          pickupLocation: 'p',
          deliveryLocation: 'q',
          createdAt: INSTANTS[i % INSTANTS.length],
          status: i % 10 === 9 ? 'matched' : 'open',
        })),
      )
      .returning({ id: deliveryRequests.id });
    await ctx.database.db.insert(bookings).values(
      requestRows.slice(0, 33).map((r, i) => ({
        requestId: r.id,
        driverId: driver.user.id,
        requesterId: a.user.id,
        createdAt: INSTANTS[i % INSTANTS.length],
      })),
    );

    const mine = await collectPages(pager<DeliveryRequest>('/requests/mine', a.token, 6));
    expect(mine.items).toHaveLength(41);
    expectSameOrdered(mine.items, newestFirst);

    const browse = await collectPages(pager<DeliveryRequest>('/requests/browse', driver.token, 5));
    expect(browse.items).toHaveLength(37);
    expectSameOrdered(browse.items, newestFirst);

    const booked = await collectPages(pager<Booking>('/bookings/mine', driver.token, 4));
    expect(booked.items).toHaveLength(33);
    expectSameOrdered(booked.items, newestFirst);

    // The same bookings from the requester's side ('As requester'), over its own index.
    const received = await collectPages(pager<Booking>('/bookings/mine', a.token, 4, { role: 'requester' }));
    expect(received.items.map((b) => b.id)).toEqual(booked.items.map((b) => b.id));
    const asDriver = await call<PageBody<Booking>>('GET', '/bookings/mine?role=driver', { cookie: a.token });
    expect(asDriver.body).toEqual({ items: [], next_cursor: null });
  });

  it('never repeats or skips a row when rows are added between pages', async () => {
    const a = await signUpAndIn();
    const first = await call<PageBody<Ride>>('GET', '/rides/mine?limit=2', { cookie: a.token });
    expect(first.body.items).toEqual([]);
    await ctx.database.db.insert(rides).values(
      ['2099-05-01', '2099-05-02', '2099-05-03', '2099-05-04'].map((d) => ({
        userId: a.user.id,
        origin: d,
        destination: 'x',
        departureDate: d,
      })),
    );
    const page1 = await call<PageBody<Ride>>('GET', '/rides/mine?limit=2', { cookie: a.token });
    // A ride sorting before the cursor appears after page 1 was read: page 2 continues after the cursor.
    await ctx.database.db
      .insert(rides)
      .values({ userId: a.user.id, origin: 'early', destination: 'x', departureDate: '2099-04-01' });
    const page2 = await call<PageBody<Ride>>(`GET`, `/rides/mine?limit=2&cursor=${page1.body.next_cursor}`, {
      cookie: a.token,
    });
    expect([...page1.body.items, ...page2.body.items].map((r) => r.origin)).toEqual([
      '2099-05-01',
      '2099-05-02',
      '2099-05-03',
      '2099-05-04',
    ]);
    expect(page2.body.next_cursor).toBeNull();
  });

  const b64 = (s: string) => Buffer.from(s).toString('base64url');
  it.each([
    ['/rides/mine', 'not base64!'],
    ['/rides/mine', b64('not json')],
    ['/rides/mine', b64('{}')],
    ['/rides/mine', encodeCursor(['2099-02-30', '08:00:00', crypto.randomUUID()])],
    ['/rides/browse', encodeCursor(['2099-02-01', '25:00:00', crypto.randomUUID()])],
    ['/rides/browse', encodeCursor(['0000-01-01', '08:00:00', crypto.randomUUID()])],
    ['/rides/browse', encodeCursor(['2099-02-01', '08:00:00', 'nope'])],
    ['/requests/mine', encodeCursor(['2099-02-01', '08:00:00', crypto.randomUUID()])],
    ['/requests/browse', encodeCursor(['2026-01-01T10:00:00Z', crypto.randomUUID()])],
    ['/requests/browse', encodeCursor(['2026-02-31T10:00:00.000Z', crypto.randomUUID()])],
    ['/bookings/mine', encodeCursor(['2026-01-01T10:00:00.000Z', crypto.randomUUID(), 'extra'])],
    ['/bookings/mine', 'A'.repeat(201)],
    // Out-of-range parts that the shape check lets through: once a RangeError from Date#toISOString, a 500.
    ['/bookings/mine', encodeCursor(['2026-13-01T10:00:00.000Z', crypto.randomUUID()])],
    ['/requests/mine', encodeCursor(['2026-13-01T10:00:00.000Z', crypto.randomUUID()])],
    ['/requests/browse', encodeCursor(['2026-13-01T10:00:00.000Z', crypto.randomUUID()])],
    ['/requests/browse', encodeCursor(['2026-01-01T25:00:00.000Z', crypto.randomUUID()])],
    ['/rides/browse', encodeCursor(['2099-13-01', '08:00:00', crypto.randomUUID()])],
  ])('answers 400 for the malformed cursor on %s (%s)', async (path, cursor) => {
    const a = await sharedUser();
    const res = await call('GET', `${path}?cursor=${encodeURIComponent(cursor)}`, { cookie: a.token });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'validation_error', message: INVALID_CURSOR_MESSAGE });
  });

  it.each(['0', '51', '2.5', 'ten', '-1'])('answers 400 for limit=%s', async (limit) => {
    const a = await sharedUser();
    const res = await call('GET', `/rides/browse?limit=${limit}`, { cookie: a.token });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'validation_error', message: 'Limit must be a whole number from 1 to 50' });
  });
});
