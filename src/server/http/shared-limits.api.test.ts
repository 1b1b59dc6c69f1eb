import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { passwordVerifications } from '../auth/password';
import { bookings, contactMessages, messages } from '../db/schema';
import { STRONG_PASSWORD, setupTwoInstances } from '../test/harness';
import { requestBody, rideBody } from '../test/marketplace';

const realPostgres = Boolean(process.env.DATABASE_URL);

/** Two app instances (two pools) on one PostgreSQL database share every attempt count. */
describe.skipIf(!realPostgres)('limits shared by two instances (real PostgreSQL only)', () => {
  const { ctx, a, b, signUpAndIn } = setupTwoInstances({ WRITE_LIMIT_PER_USER_MAX: '4' });
  const instances = [a, b];

  it('counts sign-in failures made on A when answering on B', async () => {
    const { email } = await signUpAndIn('Shared', '10.40.0.1');
    for (let i = 0; i < 5; i++) {
      const on = instances[i % 2]!;
      expect(
        (await on('POST', '/auth/sign-in', { body: { email, password: 'Wrong-1' }, ip: '10.40.0.2' })).status,
      ).toBe(401);
    }
    for (const on of instances) {
      const res = await on('POST', '/auth/sign-in', { body: { email, password: STRONG_PASSWORD }, ip: '10.40.0.2' });
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it('lets at most 5 of 20 parallel wrong passwords spread over both instances reach argon2', async () => {
    const { email } = await signUpAndIn('Raced', '10.41.0.1');
    const before = passwordVerifications();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        instances[i % 2]!('POST', '/auth/sign-in', { body: { email, password: `Wrong-${i}` }, ip: '10.41.0.2' }),
      ),
    );
    expect(passwordVerifications() - before).toBe(5);
    expect(answers.filter((r) => r.status === 401)).toHaveLength(5);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(15);
  });

  it('limits contact posts split across both instances together', async () => {
    const subject = `Split ${Date.now()}`;
    const body = { name: 'Ada Hollow', email: 'ada@example.com', subject, message: 'Hello from two places.' };
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => instances[i % 2]!('POST', '/contact', { body, ip: '10.42.0.1' })),
    );
    const limit = ctx.env.CONTACT_PER_IP_MAX;
    expect(answers.filter((r) => r.status === 201)).toHaveLength(limit);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(20 - limit);
    const stored = await ctx.databases[0].db.select().from(contactMessages);
    expect(stored.filter((m) => m.subject === subject)).toHaveLength(limit);
  });

  it('throttles one user across both instances', async () => {
    const { token } = await signUpAndIn('Writer', '10.43.0.1');
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => instances[i % 2]!('POST', '/rides', { cookie: token, body: rideBody() })),
    );
    expect(answers.filter((r) => r.status === 201)).toHaveLength(4);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(6);
  });

  // The hot writes count the throttle inside their own statement (migration 0044): the same allowance, across instances.
  it('throttles one driver’s offers, sent at once to both instances, inside each offer’s statement', async () => {
    const owner = await signUpAndIn('Owner', '10.44.0.1');
    const other = await signUpAndIn('Other owner', '10.44.0.2');
    const open: string[] = [];
    for (const who of [owner, owner, owner, other, other, other])
      open.push(
        (await instances[0]!<{ id: string }>('POST', '/requests', { cookie: who.token, body: requestBody() })).body.id,
      );
    const driver = await signUpAndIn('Driver', '10.44.0.3');
    const answers = await Promise.all(
      open.map((id, i) => instances[i % 2]!('POST', '/bookings', { cookie: driver.token, body: { request_id: id } })),
    );
    expect(answers.filter((r) => r.status === 201)).toHaveLength(4);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(2);
    const booked = await ctx.databases[0].db.select().from(bookings).where(eq(bookings.driverId, driver.user.id));
    expect(booked).toHaveLength(4);
  });

  it('throttles one person’s messages and booking moves, sent at once to both instances', async () => {
    const owner = await signUpAndIn('Sender', '10.45.0.1');
    const req = (await instances[0]!<{ id: string }>('POST', '/requests', { cookie: owner.token, body: requestBody() }))
      .body.id; // 1 write
    const driver = await signUpAndIn('Driver two', '10.45.0.2');
    const booking = (
      await instances[1]!<{ id: string }>('POST', '/bookings', { cookie: driver.token, body: { request_id: req } })
    ).body.id;
    const sent = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        instances[i % 2]!('POST', `/bookings/${booking}/messages`, {
          cookie: owner.token,
          body: { body: `Message ${i}`, client_id: randomUUID() },
        }),
      ),
    );
    expect(sent.filter((r) => r.status === 201)).toHaveLength(3);
    expect(sent.filter((r) => r.status === 429)).toHaveLength(3);
    const stored = await ctx.databases[0].db.select().from(messages).where(eq(messages.bookingId, booking));
    expect(stored).toHaveLength(3);
    // The driver (1 write so far) withdraws ten times at once: 3 pass the throttle (one withdraws, two find it
    // withdrawn), the other 7 are refused before the move's read finds anything.
    const moves = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        instances[i % 2]!('POST', `/bookings/${booking}/withdraw`, { cookie: driver.token, body: {} }),
      ),
    );
    expect(moves.filter((r) => r.status === 200)).toHaveLength(1);
    expect(moves.filter((r) => r.status === 409)).toHaveLength(2);
    expect(moves.filter((r) => r.status === 429)).toHaveLength(7);
  });
});
