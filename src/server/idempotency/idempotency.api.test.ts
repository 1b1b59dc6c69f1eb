import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import {
  IDEMPOTENCY_HEADER,
  IDEMPOTENCY_KEY_INVALID,
  IDEMPOTENCY_KEY_REUSED,
  IDEMPOTENCY_TTL_HOURS,
  IDEMPOTENT_REPLAY_HEADER,
} from '../../shared/idempotency';
import type { Ride } from '../../shared/marketplace';
import { bookings, idempotencyKeys, rides } from '../db/schema';
import { setupTestApp } from '../test/harness';
import { requestBody, rideBody } from '../test/marketplace';

const HOUR_MS = 3_600_000;
let shift = 0;
const clock = () => new Date(Date.now() + shift);
afterEach(() => {
  shift = 0;
});

const { ctx, call, signUpAndIn } = setupTestApp({ AUTH_PER_IP_MAX: '100000' }, { clock });

const ridesOf = (userId: string) => ctx.database.db.select().from(rides).where(eq(rides.userId, userId));
const postRide = (token: string, key: string | undefined, extra: Record<string, unknown> = {}) =>
  call<Ride>('POST', '/rides', {
    cookie: token,
    body: rideBody(extra),
    headers: key === undefined ? {} : { [IDEMPOTENCY_HEADER]: key },
  });

describe('Idempotency-Key on writes', () => {
  it('the same post sent 5 times in sequence makes one ride; the repeats get the first answer', async () => {
    const ana = await signUpAndIn();
    const key = randomUUID();
    const answers = [];
    for (let k = 0; k < 5; k++) answers.push(await postRide(ana.token, key));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(answers.map((a) => a.body)).toEqual(Array(5).fill(answers[0]!.body));
    expect(answers.map((a) => a.headers.get(IDEMPOTENT_REPLAY_HEADER))).toEqual([null, 'true', 'true', 'true', 'true']);
    expect(answers[4]!.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await ridesOf(ana.user.id)).toHaveLength(1);
  });

  it('the same post sent 5 times in parallel makes one ride; every answer is the one ride', async () => {
    const ana = await signUpAndIn();
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 5 }, () => postRide(ana.token, key)));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(answers.filter((a) => a.headers.get(IDEMPOTENT_REPLAY_HEADER) === 'true')).toHaveLength(4);
    expect(await ridesOf(ana.user.id)).toHaveLength(1);
  });

  it('an accept sent 5 times in parallel makes one offer', async () => {
    const [rita, dan] = [await signUpAndIn(), await signUpAndIn()];
    const posted = await call<{ id: string }>('POST', '/requests', { cookie: rita.token, body: requestBody() });
    const key = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        call<{ id: string }>('POST', '/bookings', {
          cookie: dan.token,
          body: { request_id: posted.body.id },
          headers: { [IDEMPOTENCY_HEADER]: key },
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(await ctx.database.db.select().from(bookings).where(eq(bookings.requestId, posted.body.id))).toHaveLength(1);
  });

  it('a key sent again with another body is 422 and changes nothing', async () => {
    const ana = await signUpAndIn();
    const key = randomUUID();
    expect((await postRide(ana.token, key)).status).toBe(201);
    const again = await postRide(ana.token, key, { available_space: 'Trunk' });
    expect(again).toMatchObject({
      status: 422,
      body: { code: 'idempotency_key_reused', message: IDEMPOTENCY_KEY_REUSED },
    });
    // Another path with the same key is another request too.
    const elsewhere = await call('POST', '/requests', {
      cookie: ana.token,
      body: requestBody(),
      headers: { [IDEMPOTENCY_HEADER]: key },
    });
    expect(elsewhere.status).toBe(422);
    expect(await ridesOf(ana.user.id)).toHaveLength(1);
  });

  it("another person's key is theirs: the same key and body from two people makes two rides", async () => {
    const [ana, ben] = [await signUpAndIn(), await signUpAndIn()];
    const key = randomUUID();
    const [a, b] = [await postRide(ana.token, key), await postRide(ben.token, key)];
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.id).not.toBe(b.body.id);
    expect(b.headers.get(IDEMPOTENT_REPLAY_HEADER)).toBeNull();
  });

  it(`a key expires after ${IDEMPOTENCY_TTL_HOURS} hours (the post runs again), and the sweep deletes it`, async () => {
    const ana = await signUpAndIn();
    const key = randomUUID();
    const first = await postRide(ana.token, key);
    shift = (IDEMPOTENCY_TTL_HOURS - 0.01) * HOUR_MS;
    expect((await postRide(ana.token, key)).body.id).toBe(first.body.id);
    expect(await ctx.app.idempotency.sweep()).toBe(0);
    shift = (IDEMPOTENCY_TTL_HOURS + 0.01) * HOUR_MS;
    const later = await postRide(ana.token, key);
    expect(later.status).toBe(201);
    expect(later.body.id).not.toBe(first.body.id);
    expect(await ridesOf(ana.user.id)).toHaveLength(2);

    shift = (2 * IDEMPOTENCY_TTL_HOURS + 0.02) * HOUR_MS;
    expect(await ctx.app.idempotency.sweep()).toBeGreaterThanOrEqual(1);
    const left = await ctx.database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.userId, ana.user.id));
    expect(left).toEqual([]);
  });

  it('refuses a malformed key with 400 and stores nothing', async () => {
    const ana = await signUpAndIn();
    for (const key of ['', 'has space', 'x'.repeat(256), 'tab\tkey']) {
      const res = await postRide(ana.token, key);
      expect(res, JSON.stringify(key)).toMatchObject({
        status: 400,
        body: { code: 'validation_error', message: IDEMPOTENCY_KEY_INVALID },
      });
    }
    expect(await ridesOf(ana.user.id)).toEqual([]);
  });

  it('keeps a refusal of the input (the same 400 again), but not a signed-out 401', async () => {
    const ana = await signUpAndIn();
    const key = randomUUID();
    const bad = await postRide(ana.token, key, { origin: '' });
    expect(bad.status).toBe(400);
    const again = await postRide(ana.token, key, { origin: '' });
    expect(again.body).toEqual(bad.body);
    expect(again.headers.get(IDEMPOTENT_REPLAY_HEADER)).toBe('true');

    // Signed out: no person to keep the key for; the request is refused as usual and nothing is kept.
    const signedOut = await call('POST', '/rides', { body: rideBody(), headers: { [IDEMPOTENCY_HEADER]: key } });
    expect(signedOut.status).toBe(401);
    expect(signedOut.headers.get(IDEMPOTENT_REPLAY_HEADER)).toBeNull();
  });

  it('a DELETE repeated gets its 204 again instead of a 404', async () => {
    const ana = await signUpAndIn();
    const ride = await postRide(ana.token, undefined);
    const key = randomUUID();
    const del = () =>
      call('DELETE', `/rides/${ride.body.id}`, { cookie: ana.token, headers: { [IDEMPOTENCY_HEADER]: key } });
    const [first, second] = [await del(), await del()];
    expect([first.status, second.status]).toEqual([204, 204]);
    expect(second.headers.get(IDEMPOTENT_REPLAY_HEADER)).toBe('true');
    // Without the key, the same call is a new request: the ride is gone.
    expect((await call('DELETE', `/rides/${ride.body.id}`, { cookie: ana.token })).status).toBe(404);
  });
});
