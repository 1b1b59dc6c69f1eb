import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Ride } from '../../shared/marketplace';
import { rides, users } from '../db/schema';
import { setupTestApp } from '../test/harness';
import { rideBody } from '../test/marketplace';

// GET /rides/:id (the along-route page's summary). Many accounts: lift the per-address sign-in limit.
const { ctx, call, signUpAndIn } = setupTestApp({ AUTH_PER_IP_MAX: '100000' });
const NOT_FOUND = { code: 'not_found', message: 'Ride not found.' };

async function postedRide() {
  const driver = await signUpAndIn('Dana Driver');
  const other = await signUpAndIn('Olly Other');
  const ride = await call<Ride>('POST', '/rides', {
    cookie: driver.token,
    body: rideBody({ origin: 'Springfield, IL', destination: 'Decatur, IL', notes: 'Room for two boxes' }),
  });
  expect(ride.status).toBe(201);
  const read = (who: { token: string }, id = ride.body.id) => call<Ride>('GET', `/rides/${id}`, { cookie: who.token });
  const setRide = (values: Partial<typeof rides.$inferInsert>) =>
    ctx.database.db.update(rides).set(values).where(eq(rides.id, ride.body.id));
  return { driver, other, ride: ride.body, read, setRide };
}

describe('GET /rides/:id', () => {
  it('answers the ride to its driver and to anyone signed in, as Browse shows it (is_own per viewer)', async () => {
    const { driver, other, ride, read } = await postedRide();
    const mine = await read(driver);
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual(ride);
    const theirs = await read(other);
    expect(theirs.status).toBe(200);
    expect(theirs.body).toEqual({ ...ride, is_own: false });
  });

  it('shows the driver a cancelled or past ride, and answers 404 to others for it', async () => {
    const { driver, other, read, setRide } = await postedRide();
    await setRide({ status: 'cancelled' });
    expect((await read(driver)).body).toMatchObject({ status: 'cancelled', is_own: true });
    expect(await read(other)).toMatchObject({ status: 404, body: NOT_FOUND });
    await setRide({ status: 'active', departureDate: '2000-01-01' });
    expect((await read(driver)).body).toMatchObject({ status: 'active', departure_date: '2000-01-01' });
    expect(await read(other)).toMatchObject({ status: 404, body: NOT_FOUND });
  });

  it('answers 404 across a block either way and for a suspended driver, never to the driver', async () => {
    const { driver, other, read } = await postedRide();
    expect((await call('POST', '/blocks', { cookie: other.token, body: { user_id: driver.user.id } })).status).toBe(
      201,
    );
    expect(await read(other)).toMatchObject({ status: 404, body: NOT_FOUND });
    expect((await read(driver)).status).toBe(200);

    const second = await postedRide();
    expect(
      (await call('POST', '/blocks', { cookie: second.driver.token, body: { user_id: second.other.user.id } })).status,
    ).toBe(201);
    expect(await second.read(second.other)).toMatchObject({ status: 404, body: NOT_FOUND });

    const third = await postedRide();
    await ctx.database.db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, third.driver.user.id));
    expect(await third.read(third.other)).toMatchObject({ status: 404, body: NOT_FOUND });
  });

  it.each(['not-a-uuid', '00000000-0000-0000-0000-000000000000', crypto.randomUUID(), "1' or '1'='1"])(
    'answers 404 for the id %s, as for any id that names no ride of mine or Browse',
    async (id) => {
      const { driver } = await postedRide();
      const res = await call('GET', `/rides/${encodeURIComponent(id)}`, { cookie: driver.token });
      expect(res).toMatchObject({ status: 404, body: NOT_FOUND });
    },
  );

  it('needs a session', async () => {
    const { ride } = await postedRide();
    const res = await call('GET', `/rides/${ride.id}`);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: 'unauthenticated', message: 'Please sign in to continue.' });
  });
});
