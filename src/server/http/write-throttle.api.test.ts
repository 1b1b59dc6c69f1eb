import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { attemptCounters, bookings, deliveryRequests, rides } from '../db/schema';
import { rowsOf } from '../db/result-rows';
import { counterKey } from '../limits/attempt-counter';
import { setupTestApp, type CallResult } from '../test/harness';
import { requestBody, rideBody } from '../test/marketplace';

// A small allowance so the throttle is reachable: 3 marketplace writes per user per minute, all kinds together.
const { ctx, call, signUpAndIn } = setupTestApp({
  WRITE_LIMIT_PER_USER_MAX: '3',
  WRITE_LIMIT_PER_USER_WINDOW_SECONDS: '60',
  AUTH_PER_IP_MAX: '100000',
});

function expectThrottled(res: CallResult) {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({
    code: 'too_many_requests',
    message: "You're doing that too often. Please wait a moment.",
  });
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(60);
}

const ridesOf = async (userId: string) =>
  (await ctx.database.db.select().from(rides).where(eq(rides.userId, userId))).length;
const requestsOf = async (userId: string) =>
  (await ctx.database.db.select().from(deliveryRequests).where(eq(deliveryRequests.userId, userId))).length;
const bookingsOf = async (userId: string) =>
  (await ctx.database.db.select().from(bookings).where(eq(bookings.driverId, userId))).length;

/** The count of `subject`'s window in `scope` (0 when it has none). */
async function hitsOf(scope: string, subject: string): Promise<number> {
  const [row] = await ctx.database.db
    .select({ hits: attemptCounters.hits })
    .from(attemptCounters)
    .where(eq(attemptCounters.key, counterKey(scope, subject)));
  return row?.hits ?? 0;
}

const postRide = (token: string) => call<{ id: string }>('POST', '/rides', { cookie: token, body: rideBody() });
const postRequest = (token: string) =>
  call<{ id: string }>('POST', '/requests', { cookie: token, body: requestBody() });

describe('per-user write throttle', () => {
  it('refuses the 4th ride within the window and stores nothing for it; another user is unaffected', async () => {
    const driver = await signUpAndIn();
    for (let i = 0; i < 3; i++) expect((await postRide(driver.token)).status).toBe(201);
    expectThrottled(await postRide(driver.token));
    expect(await ridesOf(driver.user.id)).toBe(3);

    const other = await signUpAndIn();
    expect((await postRide(other.token)).status).toBe(201);

    // Once the window has passed, the driver may write again.
    await ctx.database.db
      .update(attemptCounters)
      .set({ windowEnd: sql`now() - interval '1 second'` })
      .where(eq(attemptCounters.key, counterKey('write', driver.user.id)));
    expect((await postRide(driver.token)).status).toBe(201);
  });

  it('refuses the 4th delivery request and stores nothing for it', async () => {
    const owner = await signUpAndIn();
    for (let i = 0; i < 3; i++) expect((await postRequest(owner.token)).status).toBe(201);
    expectThrottled(await postRequest(owner.token));
    expect(await requestsOf(owner.user.id)).toBe(3);
  });

  it('refuses the 4th accept and books nothing for it', async () => {
    const owners = [await signUpAndIn(), await signUpAndIn()];
    const open = [];
    for (const owner of owners) for (let i = 0; i < 2; i++) open.push((await postRequest(owner.token)).body.id);
    const driver = await signUpAndIn();
    for (const id of open.slice(0, 3))
      expect((await call('POST', '/bookings', { cookie: driver.token, body: { request_id: id } })).status).toBe(201);
    expectThrottled(await call('POST', '/bookings', { cookie: driver.token, body: { request_id: open[3] } }));
    expect(await bookingsOf(driver.user.id)).toBe(3);
  });

  it('counts deletes with the other writes and keeps the row a refused delete names', async () => {
    const driver = await signUpAndIn();
    const first = (await postRide(driver.token)).body.id;
    const second = (await postRide(driver.token)).body.id;
    expect((await call('DELETE', `/rides/${first}`, { cookie: driver.token })).status).toBe(204);
    expectThrottled(await call('DELETE', `/rides/${second}`, { cookie: driver.token }));
    const [kept] = await ctx.database.db.select().from(rides).where(eq(rides.id, second));
    expect(kept?.status).toBe('active');
    // Reads are never throttled.
    expect((await call('GET', '/rides/mine', { cookie: driver.token })).status).toBe(200);
  });

  it('counts every booking lifecycle action with the other writes, and a refused one changes nothing', async () => {
    const owner = await signUpAndIn();
    const drivers = [await signUpAndIn(), await signUpAndIn(), await signUpAndIn()];
    const req = (await postRequest(owner.token)).body.id; // owner: 1 write
    const offers: string[] = [];
    for (const d of drivers)
      offers.push(
        (await call<{ id: string }>('POST', '/bookings', { cookie: d.token, body: { request_id: req } })).body.id,
      );
    expect((await call('POST', `/bookings/${offers[0]}/decline`, { cookie: owner.token, body: {} })).status).toBe(200);
    expect((await call('POST', `/bookings/${offers[1]}/decline`, { cookie: owner.token, body: {} })).status).toBe(200);
    expectThrottled(await call('POST', `/bookings/${offers[2]}/choose`, { cookie: owner.token, body: {} }));
    const [kept] = await ctx.database.db.select().from(bookings).where(eq(bookings.id, offers[2]!));
    expect(kept?.status).toBe('pending');
    // Reading the booking is not a write.
    expect((await call('GET', `/bookings/${offers[2]}`, { cookie: owner.token })).status).toBe(200);
    // The driver's allowance is their own: withdraw, cancel and complete count the same way.
    const form = new FormData();
    form.set('code', '123456');
    const d = drivers[2]!;
    expect((await call('POST', `/bookings/${offers[2]}/withdraw`, { cookie: d.token, body: {} })).status).toBe(200);
    expect(
      (await call('POST', `/bookings/${offers[2]}/cancel`, { cookie: d.token, body: { reason: 'other' } })).status,
    ).toBe(409);
    expectThrottled(await call('POST', `/bookings/${offers[2]}/complete`, { cookie: d.token, form }));
  });

  it('counts a second offer on the same request, refused as already accepted, and books nothing more', async () => {
    const owner = await signUpAndIn();
    const req = (await postRequest(owner.token)).body.id;
    const driver = await signUpAndIn();
    const offer = () => call('POST', '/bookings', { cookie: driver.token, body: { request_id: req } });
    expect((await offer()).status).toBe(201);
    expect((await offer()).body).toMatchObject({ code: 'already_accepted' });
    expect((await offer()).body).toMatchObject({ code: 'already_accepted' });
    expectThrottled(await offer());
    expect(await bookingsOf(driver.user.id)).toBe(1);
    expect(await hitsOf('write', driver.user.id)).toBe(4);
  });

  it('counts a message against the write throttle first: a refused one uses none of the messages’ allowance', async () => {
    const owner = await signUpAndIn();
    const req = (await postRequest(owner.token)).body.id; // owner: 1 write
    const driver = await signUpAndIn();
    const booking = (
      await call<{ id: string }>('POST', '/bookings', { cookie: driver.token, body: { request_id: req } })
    ).body.id;
    const send = (body: string) =>
      call('POST', `/bookings/${booking}/messages`, {
        cookie: owner.token,
        body: { body, client_id: crypto.randomUUID() },
      });
    expect((await send('First')).status).toBe(201);
    expect((await send('Second')).status).toBe(201);
    expectThrottled(await send('Third'));
    expect(await hitsOf('message', owner.user.id)).toBe(2);
    const stored = await ctx.database.db.execute(
      sql`select count(*)::int as n from messages where booking_id = ${booking}`,
    );
    expect(rowsOf<{ n: number }>(stored)[0]?.n).toBe(2);
  });

  it('lets exactly the allowance through when one driver sends ten offers at once', async () => {
    const owners = [await signUpAndIn(), await signUpAndIn(), await signUpAndIn(), await signUpAndIn()];
    const open: string[] = [];
    for (const owner of owners)
      for (let i = 0; i < 3; i++) if (open.length < 10) open.push((await postRequest(owner.token)).body.id);
    const driver = await signUpAndIn();
    const answers = await Promise.all(
      open.map((id) => call('POST', '/bookings', { cookie: driver.token, body: { request_id: id } })),
    );
    expect(answers.filter((r) => r.status === 201)).toHaveLength(3);
    for (const refused of answers.filter((r) => r.status !== 201)) expectThrottled(refused);
    expect(await bookingsOf(driver.user.id)).toBe(3);
  });

  it('asks for a session before counting anything', async () => {
    expect((await call('POST', '/rides', { body: rideBody() })).status).toBe(401);
  });
});
