import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { BookingDetail } from '../../shared/lifecycle';
import type { Db } from '../db/client';
import { bookingEvents, bookings, deliveryRequests } from '../db/schema';
import { callApp, setupTestApp, setupTwoInstances, type CallResult } from '../test/harness';
import { lifecycleHelpers, TEST_CARD } from '../test/lifecycle';

const realPostgres = Boolean(process.env.DATABASE_URL);
const SKIP_REASON = '(skipped without DATABASE_URL: PGlite has one connection, so no race)';
const STATE_CHANGED = 'booking_state_changed';

async function statusesOf(db: Db, requestId: string) {
  const rows = await db
    .select({ id: bookings.id, status: bookings.status })
    .from(bookings)
    .where(eq(bookings.requestId, requestId));
  const [request] = await db
    .select({ status: deliveryRequests.status })
    .from(deliveryRequests)
    .where(eq(deliveryRequests.id, requestId));
  return { bookings: rows, request: request?.status };
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const statusCounts = (rows: { status: string }[]) =>
  rows.reduce<Record<string, number>>((acc, r) => ({ ...acc, [r.status]: (acc[r.status] ?? 0) + 1 }), {});

/**
 * Races need real connections: PGlite has a single one, so every request would run one after another and the test
 * would prove nothing. Run with `bash scripts/with-postgres.sh npx vitest run src/server/bookings`.
 */
describe.skipIf(!realPostgres)(`booking lifecycle races on real PostgreSQL ${SKIP_REASON}`, () => {
  const { ctx, call, signUpAndIn } = setupTestApp({ AUTH_PER_IP_MAX: '100000' });
  const { act, complete, story, confirmed, offer } = lifecycleHelpers(call, signUpAndIn);

  it('10 concurrent chooses on different offers of one request: exactly one confirmed, the other 9 declined', async () => {
    for (let round = 0; round < 3; round++) {
      const s = await story(10, `Race ${round}`);
      const answers = await Promise.all(s.offers.map((o) => act(s.requester.token, o.id, 'choose')));
      expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array<number>(9).fill(409)]);
      // The request is paid for (compensation): a choice that comes while another is paying is refused before its
      // card is charged (payment_in_progress); one that comes after, by the booking's new state.
      for (const a of answers.filter((x) => x.status === 409))
        expect([STATE_CHANGED, 'payment_in_progress']).toContain((a.body as unknown as { code: string }).code);
      const after = await statusesOf(ctx.database.db, s.request.id);
      expect(statusCounts(after.bookings)).toEqual({ confirmed: 1, declined: 9 });
      expect(after.request).toBe('matched');
      const winner = answers.find((a) => a.status === 200)!.body as BookingDetail;
      expect(after.bookings.find((b) => b.status === 'confirmed')?.id).toBe(winner.id);
      // One event per booking beyond its offer: 'chosen' for the winner, 'other_chosen' for each of the others.
      const events = await ctx.database.db
        .select({ type: bookingEvents.type })
        .from(bookingEvents)
        .innerJoin(bookings, eq(bookings.id, bookingEvents.bookingId))
        .where(and(eq(bookings.requestId, s.request.id)));
      expect(statusCounts(events.map((e) => ({ status: e.type })))).toEqual({
        offered: 10,
        chosen: 1,
        other_chosen: 9,
      });
    }
  });

  it('complete and cancel at the same moment: exactly one wins, and the request follows the winner', async () => {
    const winners: string[] = [];
    for (let round = 0; round < 8; round++) {
      const c = await confirmed(1, `Complete or cancel ${round}`);
      // complete does more before its transaction (the attempt count, the code): the cancel is sent a few
      // milliseconds later in some rounds, so that each side wins some of them.
      const [done, cancelled] = await Promise.all([
        complete(c.driver.token, c.bookingId, c.code),
        delay(round % 4).then(() =>
          act(round % 2 ? c.requester.token : c.driver.token, c.bookingId, 'cancel', { reason: 'plans_changed' }),
        ),
      ]);
      expect([done.status, cancelled.status].sort()).toEqual([200, 409]);
      const loser = done.status === 409 ? done : cancelled;
      expect(loser.body).toMatchObject({ code: STATE_CHANGED });
      const after = await statusesOf(ctx.database.db, c.request.id);
      if (done.status === 200) {
        expect(after).toEqual({ bookings: [{ id: c.bookingId, status: 'completed' }], request: 'completed' });
        winners.push('complete');
      } else {
        expect(after).toEqual({ bookings: [{ id: c.bookingId, status: 'cancelled' }], request: 'open' });
        winners.push('cancel');
      }
    }
    console.info(`[race] complete vs cancel winners: ${winners.join(', ')}`);
  });

  it('accepts and a choose at once never leave a pending offer on a matched request', async () => {
    for (let round = 0; round < 8; round++) {
      const s = await story(2, `Accept or choose ${round}`);
      const late = await Promise.all(Array.from({ length: 4 }, () => signUpAndIn()));
      const answers = await Promise.all([
        act(s.requester.token, s.offers[round % 2]!.id, 'choose'),
        ...late.map((d) => call('POST', '/bookings', { cookie: d.token, body: { request_id: s.request.id } })),
      ]);
      expect(answers[0]?.status).toBe(200);
      for (const a of answers.slice(1)) {
        expect([201, 409]).toContain(a.status);
        if (a.status === 409) expect(a.body).toMatchObject({ code: 'request_unavailable' });
      }
      const after = await statusesOf(ctx.database.db, s.request.id);
      expect(after.request).toBe('matched');
      expect(after.bookings.filter((b) => b.status === 'pending')).toEqual([]);
      expect(statusCounts(after.bookings)).toEqual({
        confirmed: 1,
        declined: 1 + answers.slice(1).filter((a) => a.status === 201).length,
      });
    }
  });

  it('after a cancel reopened the request, two chooses at once still give one chosen driver', async () => {
    for (let round = 0; round < 5; round++) {
      const c = await confirmed(2, `Cancel and choose again ${round}`);
      const newcomer = await signUpAndIn();
      await act(c.driver.token, c.bookingId, 'cancel', { reason: 'too_late' });
      const fresh = await offer(newcomer.token, c.request.id);
      const again = await offer(c.drivers[1]!.token, c.request.id);
      const answers = await Promise.all([
        act(c.requester.token, fresh.id, 'choose'),
        act(c.requester.token, again.id, 'choose'),
      ]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      const after = await statusesOf(ctx.database.db, c.request.id);
      expect(after.bookings.filter((b) => b.status === 'confirmed')).toHaveLength(1);
      expect(after.bookings.filter((b) => b.status === 'pending')).toEqual([]);
    }
  });

  it('10 parallel wrong codes: exactly 5 are compared (422), the rest locked (429)', async () => {
    const c = await confirmed(1, 'Guessing');
    const wrong = String((Number(c.code) + 500_000) % 1_000_000).padStart(6, '0');
    const answers = await Promise.all(Array.from({ length: 10 }, () => complete(c.driver.token, c.bookingId, wrong)));
    const codes = answers.map((a) => (a.body as unknown as { code: string }).code);
    expect(codes.filter((x) => x === 'wrong_delivery_code')).toHaveLength(5);
    expect(codes.filter((x) => x === 'delivery_code_locked')).toHaveLength(5);
    expect((await complete(c.driver.token, c.bookingId, c.code)).status).toBe(429);
  });
});

describe.skipIf(!realPostgres)(`choose on two app instances at once ${SKIP_REASON}`, () => {
  const { ctx, a, b, signUpAndIn } = setupTwoInstances({ AUTH_PER_IP_MAX: '100000' });
  const { story } = lifecycleHelpers(a, signUpAndIn);

  it('instance A and instance B choosing different offers of one request: one confirmed, the other declined', async () => {
    for (let round = 0; round < 5; round++) {
      const s = await story(2, `Two instances ${round}`);
      const choose = (via: typeof a, id: string): Promise<CallResult> =>
        via('POST', `/bookings/${id}/choose`, { cookie: s.requester.token, body: { card: TEST_CARD } });
      const answers = await Promise.all([choose(a, s.offers[0]!.id), choose(b, s.offers[1]!.id)]);
      expect(answers.map((x) => x.status).sort()).toEqual([200, 409]);
      const after = await statusesOf(ctx.databases[0].db, s.request.id);
      expect(statusCounts(after.bookings)).toEqual({ confirmed: 1, declined: 1 });
      expect(after.request).toBe('matched');
      // Both instances now show the same booking page.
      const winner = after.bookings.find((x) => x.status === 'confirmed')!.id;
      const fromA = await callApp<BookingDetail>(ctx.apps[0], 'GET', `/bookings/${winner}`, {
        cookie: s.requester.token,
      });
      const fromB = await b<BookingDetail>('GET', `/bookings/${winner}`, { cookie: s.requester.token });
      expect(fromB.body).toEqual(fromA.body);
    }
  });
});
