import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { DeliveryRequest } from '../../shared/marketplace';
import { bookings } from '../db/schema';
import { setupTestApp } from '../test/harness';
import { requestBody } from '../test/marketplace';

const realPostgres = Boolean(process.env.DATABASE_URL);

/**
 * Races need real connections: PGlite has a single one, so every request would run one after another and the test
 * would prove nothing. Run with `bash scripts/with-postgres.sh npm test`.
 */
describe.skipIf(!realPostgres)(
  'concurrent accepts on real PostgreSQL (skipped without DATABASE_URL: PGlite has one connection, so no race)',
  () => {
    const { ctx, call, signUpAndIn } = setupTestApp({ AUTH_PER_IP_MAX: '100000' });

    const newRequest = async (token: string) =>
      (await call<DeliveryRequest>('POST', '/requests', { cookie: token, body: requestBody() })).body;

    it('one driver accepting the same request 8 times at once gets one booking and 7 already_accepted', async () => {
      const owner = await signUpAndIn();
      const driver = await signUpAndIn();
      for (let round = 0; round < 5; round++) {
        const req = await newRequest(owner.token);
        const answers = await Promise.all(
          Array.from({ length: 8 }, () =>
            call('POST', '/bookings', { cookie: driver.token, body: { request_id: req.id } }),
          ),
        );
        expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
        for (const a of answers.filter((x) => x.status === 409)) {
          expect(a.body).toEqual({ code: 'already_accepted', message: "You've already accepted this request" });
        }
        const rows = await ctx.database.db.select().from(bookings).where(eq(bookings.requestId, req.id));
        expect(rows).toHaveLength(1);
        expect(rows[0]?.driverId).toBe(driver.user.id);
      }
    });

    it('many drivers accepting one request at once all succeed, once each', async () => {
      const owner = await signUpAndIn();
      const drivers = await Promise.all(Array.from({ length: 6 }, () => signUpAndIn()));
      const req = await newRequest(owner.token);
      const answers = await Promise.all(
        drivers.flatMap((d) =>
          [1, 2].map(() => call('POST', '/bookings', { cookie: d.token, body: { request_id: req.id } })),
        ),
      );
      expect(answers.filter((a) => a.status === 201)).toHaveLength(6);
      expect(answers.filter((a) => a.status === 409)).toHaveLength(6);
      const rows = await ctx.database.db.select().from(bookings).where(eq(bookings.requestId, req.id));
      expect(new Set(rows.map((r) => r.driverId))).toEqual(new Set(drivers.map((d) => d.user.id)));
    });

    it('accepts racing a delete never leave a pending booking on a deleted request', async () => {
      const owner = await signUpAndIn();
      const drivers = await Promise.all(Array.from({ length: 6 }, () => signUpAndIn()));
      for (let round = 0; round < 5; round++) {
        const req = await newRequest(owner.token);
        const [deleted, ...accepts] = await Promise.all([
          call('DELETE', `/requests/${req.id}`, { cookie: owner.token }),
          ...drivers.map((d) => call('POST', '/bookings', { cookie: d.token, body: { request_id: req.id } })),
        ]);
        expect(deleted?.status).toBe(204);
        for (const a of accepts) {
          expect([201, 409]).toContain(a.status);
          if (a.status === 409) expect(a.body).toMatchObject({ code: 'request_unavailable' });
        }
        const rows = await ctx.database.db.select().from(bookings).where(eq(bookings.requestId, req.id));
        expect(rows).toHaveLength(accepts.filter((a) => a.status === 201).length);
        expect(rows.every((r) => r.status === 'declined')).toBe(true);
      }
    });
  },
);
