import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { earliestToday } from '../../shared/dates';
import type { Ride } from '../../shared/marketplace';
import { rides } from '../db/schema';
import { setupTestApp } from '../test/harness';
import { lifecycleHelpers } from '../test/lifecycle';
import { FUTURE, collectPages, countRows, rideBody, type PageBody } from '../test/marketplace';
import { completeDelivery, seedReview } from '../test/reviews';

// Many accounts per file: lift the per-address sign-in limit (its own tests live in the auth suite).
const { ctx, call, signUpAndIn } = setupTestApp({ AUTH_PER_IP_MAX: '100000' });
const life = lifecycleHelpers(call, signUpAndIn);

/** One account for the tests that only need "a signed-in user": sign-ups are the slow part of this file. */
let shared: ReturnType<typeof signUpAndIn> | undefined;
const sharedUser = () => (shared ??= signUpAndIn());

const dayBefore = (iso: string) => new Date(Date.parse(`${iso}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

describe('POST /rides', () => {
  it('posts a ride for the session user, trimmed, empty optionals as null, ignoring user_id and status', async () => {
    const a = await signUpAndIn('Ann Driver');
    const b = await signUpAndIn('Bob Other');
    const res = await call<Ride>('POST', '/rides', {
      cookie: a.token,
      body: rideBody({
        origin: '  Millbrook  ',
        departure_time: '',
        available_space: '   ',
        notes: '',
        user_id: b.user.id,
        status: 'cancelled',
      }),
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      origin: 'Millbrook',
      destination: 'Harwood Market',
      departure_date: FUTURE,
      departure_time: null,
      available_space: null,
      notes: null,
      status: 'active',
      poster_name: 'Ann Driver',
      poster_id: a.user.id,
      poster_rating: { count: 0, average: null },
      is_own: true,
    });
    const [row] = await ctx.database.db.select().from(rides).where(eq(rides.id, res.body.id));
    expect(row).toMatchObject({ userId: a.user.id, status: 'active', departureTime: null, availableSpace: null });
  });

  it('keeps a time as HH:MM (seconds dropped) and accepts a ride departing on the earliest today', async () => {
    const a = await signUpAndIn();
    const res = await call<Ride>('POST', '/rides', {
      cookie: a.token,
      body: rideBody({ departure_date: earliestToday(), departure_time: '07:05:59' }),
    });
    expect(res.status).toBe(201);
    expect(res.body.departure_time).toBe('07:05');
    expect(res.body.departure_date).toBe(earliestToday());
  });

  it.each([
    [{ origin: '' }, 'Origin is required'],
    [{ origin: '    ' }, 'Origin is required'],
    [{ origin: undefined }, 'Origin is required'],
    [{ origin: 'x'.repeat(501) }, 'Origin must be less than 500 characters'],
    [{ destination: '' }, 'Destination is required'],
    [{ destination: 'x'.repeat(501) }, 'Destination must be less than 500 characters'],
    [{ departure_date: '' }, 'Departure date is required'],
    [{ departure_date: null }, 'Departure date is required'],
    [{ departure_date: '2099-02-30' }, 'Please enter a valid date'],
    [{ departure_date: '15/06/2099' }, 'Please enter a valid date'],
    [{ departure_date: dayBefore(earliestToday()) }, 'Departure date cannot be in the past'],
    [{ departure_time: '25:00' }, 'Please enter a valid time'],
    [{ departure_time: 930 }, 'Please enter a valid time'],
    [{ available_space: 'x'.repeat(201) }, 'Available space must be less than 200 characters'],
    [{ notes: 'x'.repeat(1001) }, 'Notes must be less than 1000 characters'],
  ])('refuses %o with "%s" and stores nothing', async (patch, message) => {
    const a = await sharedUser();
    const before = await countRows(ctx.database.db, rides);
    const res = await call('POST', '/rides', { cookie: a.token, body: rideBody(patch) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'validation_error', message });
    expect(await countRows(ctx.database.db, rides)).toBe(before);
  });

  it('reports the first failing field in form order', async () => {
    const a = await sharedUser();
    const res = await call('POST', '/rides', {
      cookie: a.token,
      body: { origin: '', destination: '', departure_date: '' },
    });
    expect(res.body).toEqual({ code: 'validation_error', message: 'Origin is required' });
  });

  it('accepts the longest allowed values', async () => {
    const a = await sharedUser();
    const res = await call('POST', '/rides', {
      cookie: a.token,
      body: rideBody({ origin: 'o'.repeat(500), available_space: 's'.repeat(200), notes: 'n'.repeat(1000) }),
    });
    expect(res.status).toBe(201);
  });
});

describe('POST /rides with a body over 64 KiB', () => {
  it('answers 413 and stores nothing', async () => {
    const a = await sharedUser();
    const before = await countRows(ctx.database.db, rides);
    const res = await call('POST', '/rides', { cookie: a.token, body: rideBody({ notes: 'n'.repeat(70_000) }) });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ code: 'payload_too_large', message: 'The request is too large.' });
    expect(await countRows(ctx.database.db, rides)).toBe(before);
  });
});

describe('GET /rides/mine', () => {
  it('lists only my rides, soonest departure first, timed rides before untimed ones on the same day', async () => {
    const a = await signUpAndIn('Ann');
    const b = await signUpAndIn('Bob');
    const post = (token: string, extra: Record<string, unknown>) =>
      call<Ride>('POST', '/rides', { cookie: token, body: rideBody(extra) });
    await post(a.token, { origin: 'late', departure_date: '2099-07-01', departure_time: '' });
    await post(a.token, { origin: 'evening', departure_date: '2099-07-01', departure_time: '18:00' });
    await post(a.token, { origin: 'first', departure_date: '2099-06-30', departure_time: '23:59' });
    await post(b.token, { origin: 'bob', departure_date: '2099-06-01' });
    const res = await call<PageBody<Ride>>('GET', '/rides/mine', { cookie: a.token });
    expect(res.status).toBe(200);
    expect(res.body.items.map((r) => r.origin)).toEqual(['first', 'evening', 'late']);
    expect(res.body.items.every((r) => r.is_own && r.poster_name === 'Ann')).toBe(true);
    expect(res.body.next_cursor).toBeNull();
  });

  it('includes my past and inactive rides (it is my history, not the market)', async () => {
    const a = await signUpAndIn();
    await ctx.database.db.insert(rides).values([
      { userId: a.user.id, origin: 'old', destination: 'd', departureDate: '2001-01-01' },
      { userId: a.user.id, origin: 'done', destination: 'd', departureDate: FUTURE, status: 'completed' },
    ]);
    const res = await call<PageBody<Ride>>('GET', '/rides/mine', { cookie: a.token });
    expect(res.body.items.map((r) => [r.origin, r.status])).toEqual([
      ['old', 'active'],
      ['done', 'completed'],
    ]);
  });

  it('shows an empty page to a user without rides', async () => {
    const c = await signUpAndIn();
    const res = await call('GET', '/rides/mine', { cookie: c.token });
    expect(res.body).toEqual({ items: [], next_cursor: null });
  });
});

describe('GET /rides/browse', () => {
  it('lists active rides departing today or later from everyone, with the poster name and is_own', async () => {
    const a = await signUpAndIn('Browse Ann');
    const b = await signUpAndIn('Browse Bob');
    const today = earliestToday();
    await ctx.database.db.insert(rides).values([
      { userId: a.user.id, origin: 'browse-past', destination: 'd', departureDate: dayBefore(today) },
      { userId: a.user.id, origin: 'browse-cancelled', destination: 'd', departureDate: FUTURE, status: 'cancelled' },
      { userId: a.user.id, origin: 'browse-today', destination: 'd', departureDate: today },
      { userId: b.user.id, origin: 'browse-bob', destination: 'd', departureDate: '2098-01-01' },
    ]);
    const { items } = await collectPages((cursor) =>
      call<PageBody<Ride>>('GET', `/rides/browse?limit=50${cursor ? `&cursor=${cursor}` : ''}`, {
        cookie: b.token,
      }),
    );
    const mine = items.filter((r) => r.origin.startsWith('browse-'));
    expect(mine.map((r) => [r.origin, r.poster_name, r.poster_id, r.is_own])).toEqual([
      ['browse-today', 'Browse Ann', a.user.id, false],
      ['browse-bob', 'Browse Bob', b.user.id, true],
    ]);
    expect(items.every((r) => r.status === 'active' && r.departure_date >= today)).toBe(true);
  });
});

describe('DELETE /rides/:id', () => {
  it('deletes my own ride', async () => {
    const a = await signUpAndIn();
    const ride = await call<Ride>('POST', '/rides', { cookie: a.token, body: rideBody() });
    const res = await call('DELETE', `/rides/${ride.body.id}`, { cookie: a.token });
    expect(res.status).toBe(204);
    expect(await ctx.database.db.select().from(rides).where(eq(rides.id, ride.body.id))).toEqual([]);
    const again = await call('DELETE', `/rides/${ride.body.id}`, { cookie: a.token });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ code: 'not_found', message: 'Ride not found.' });
  });

  it("answers 404 for another user's ride and leaves it unchanged", async () => {
    const a = await signUpAndIn();
    const b = await signUpAndIn();
    const ride = await call<Ride>('POST', '/rides', { cookie: a.token, body: rideBody() });
    const [before] = await ctx.database.db.select().from(rides).where(eq(rides.id, ride.body.id));
    const res = await call('DELETE', `/rides/${ride.body.id}`, { cookie: b.token });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: 'not_found', message: 'Ride not found.' });
    const [after] = await ctx.database.db.select().from(rides).where(eq(rides.id, ride.body.id));
    expect(after).toEqual(before);
  });

  it.each(['not-a-uuid', '00000000-0000-0000-0000-000000000000', crypto.randomUUID(), "1' or '1'='1"])(
    'answers 404 for the id %s',
    async (id) => {
      const a = await sharedUser();
      const before = await countRows(ctx.database.db, rides);
      const res = await call('DELETE', `/rides/${encodeURIComponent(id)}`, { cookie: a.token });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: 'not_found', message: 'Ride not found.' });
      expect(await countRows(ctx.database.db, rides)).toBe(before);
    },
  );
});

describe('without a session', () => {
  it.each([
    ['GET', '/rides/mine'],
    ['GET', '/rides/browse'],
    ['POST', '/rides'],
    ['DELETE', `/rides/${crypto.randomUUID()}`],
  ])('%s %s answers 401 and changes nothing', async (method, path) => {
    const before = await countRows(ctx.database.db, rides);
    const res = await call(method, path, { body: method === 'POST' ? rideBody() : undefined });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: 'unauthenticated', message: 'Please sign in to continue.' });
    const bogus = await call(method, path, {
      cookie: 'x'.repeat(43),
      body: method === 'POST' ? rideBody() : undefined,
    });
    expect(bogus.status).toBe(401);
    expect(await countRows(ctx.database.db, rides)).toBe(before);
  });
});

describe("the poster's rating on ride cards", () => {
  it("shows each poster's published rating and count, or a new member, in browse, in mine and on the new ride", async () => {
    const rated = await signUpAndIn('Rated Driver');
    const fresh = await signUpAndIn('Fresh Driver');
    const viewer = await signUpAndIn('Viewer');
    // Three deliveries Rated drove; their requesters rate 5, 4 and 4; a fourth review still waits to be published.
    for (const rating of [5, 4, 4, null]) {
      const booking = await completeDelivery(life, await signUpAndIn(), rated);
      await seedReview(ctx.database.db, booking, {
        by: 'requester',
        rating: rating ?? 1,
        publishedAt: rating ? undefined : null,
      });
    }
    const expected = { count: 3, average: 4.3 };
    const posted = await call<Ride>('POST', '/rides', {
      cookie: rated.token,
      body: rideBody({ origin: 'rated-ride', departure_time: '08:00' }),
    });
    expect(posted.body.poster_rating).toEqual(expected);
    await call('POST', '/rides', {
      cookie: fresh.token,
      body: rideBody({ origin: 'fresh-ride', departure_time: '09:00' }),
    });

    const { items } = await collectPages((cursor) =>
      call<PageBody<Ride>>('GET', `/rides/browse?limit=50${cursor ? `&cursor=${cursor}` : ''}`, {
        cookie: viewer.token,
      }),
    );
    const cards = items.filter((r) => r.origin === 'rated-ride' || r.origin === 'fresh-ride');
    expect(cards.map((r) => [r.origin, r.poster_id, r.poster_rating])).toEqual([
      ['rated-ride', rated.user.id, expected],
      ['fresh-ride', fresh.user.id, { count: 0, average: null }],
    ]);
    const mine = await call<PageBody<Ride>>('GET', '/rides/mine', { cookie: rated.token });
    expect(mine.body.items.map((r) => r.poster_rating)).toEqual([expected]);

    // A review published later shows on the next read: the counters, not a copy on the ride.
    const another = await completeDelivery(life, await signUpAndIn(), rated);
    await seedReview(ctx.database.db, another, { by: 'requester', rating: 1 });
    const again = await call<PageBody<Ride>>('GET', '/rides/mine', { cookie: rated.token });
    expect(again.body.items[0]?.poster_rating).toEqual({ count: 4, average: 3.5 });
  });
});

describe('length limits at the boundary, in the API and the database alike', () => {
  it('stores 500 characters even when each is outside the Basic Multilingual Plane, and refuses 501', async () => {
    const { token } = await sharedUser();
    const ok = await call<Ride>('POST', '/rides', { cookie: token, body: rideBody({ origin: '🚜'.repeat(500) }) });
    expect(ok.status).toBe(201);
    expect([...ok.body.origin]).toHaveLength(500);
    const [row] = await ctx.database.db.select().from(rides).where(eq(rides.id, ok.body.id));
    expect(row?.origin).toBe('🚜'.repeat(500));
    const tooLong = await call('POST', '/rides', { cookie: token, body: rideBody({ origin: '🚜'.repeat(501) }) });
    expect(tooLong.body).toEqual({ code: 'validation_error', message: 'Origin must be less than 500 characters' });
  });
});
