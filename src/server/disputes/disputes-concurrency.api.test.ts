import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AdminDispute } from '../../shared/disputes';
import type { BookingDetail } from '../../shared/lifecycle';
import { TEST_CHARGEBACK_FEE_CENTS } from '../../shared/payments';
import { rowsOf } from '../db/result-rows';
import { bookingPhotos, bookings, chargebacks, disputes, payments, users } from '../db/schema';
import { ledgerTotal } from '../payments';
import { STRONG_PASSWORD, setupTwoInstances, type CallResult } from '../test/harness';
import { lifecycleHelpers, testImage } from '../test/lifecycle';
import { until } from '../test/wait';

const realPostgres = Boolean(process.env.DATABASE_URL);
// requestBody's compensation is '12.5': the requester pays $13.75.
const TOTAL = 1375;
const SKIP_REASON = '(skipped without DATABASE_URL: PGlite has one connection, so no race)';

/**
 * Disputes' races (decision 032), each side on its own instance of one real PostgreSQL: a report against a
 * completion at the same moment has one winner and the money follows it; two moderators deciding one dispute at once
 * make one decision and one posting. Run with `bash scripts/with-postgres.sh npx vitest run src/server/disputes`.
 */
describe.skipIf(!realPostgres)(`dispute races on two instances ${SKIP_REASON}`, () => {
  const { ctx, a, b, signUpAndIn, signIn } = setupTwoInstances({
    AUTH_PER_IP_MAX: '100000',
    WRITE_LIMIT_PER_USER_MAX: '100000',
  });
  const { act, complete, confirmed } = lifecycleHelpers(a, signUpAndIn);
  const db = () => ctx.databases[0].db;
  const admins: { token: string; user: { id: string } }[] = [];

  beforeAll(async () => {
    for (const name of ['Mo One', 'Mo Two']) {
      const account = await signUpAndIn(name);
      await db().update(users).set({ role: 'admin' }).where(eq(users.id, account.user.id));
      admins.push({ ...account, token: await signIn(account.email, STRONG_PASSWORD) });
    }
  });

  const reportForm = () => {
    const f = new FormData();
    f.set('reason', 'other');
    f.set('details', 'Something is wrong with the delivery.');
    return f;
  };

  it('a report and a completion at the same moment: one wins, the money follows it (10 rounds)', async () => {
    const outcomes = new Set<string>();
    for (let round = 0; round < 10; round++) {
      const s = await confirmed(1, `Race ${round}`);
      expect((await act(s.driver.token, s.bookingId, 'pickup')).status).toBe(200);
      const [reported, completed] = await Promise.all([
        b<BookingDetail>('POST', `/bookings/${s.bookingId}/dispute`, { cookie: s.requester.token, form: reportForm() }),
        complete(s.driver.token, s.bookingId, s.code),
      ]);
      const [booking] = await db().select().from(bookings).where(eq(bookings.id, s.bookingId));
      const [payment] = await db().select().from(payments).where(eq(payments.bookingId, s.bookingId));
      const [dispute] = await db().select().from(disputes).where(eq(disputes.bookingId, s.bookingId));
      expect(reported.status).toBe(200);
      if (completed.status === 200) {
        // The completion came first: the money is released and the report, after it, moves none ('report').
        expect(booking).toMatchObject({ status: 'completed', onHoldDisputeId: null });
        expect(payment).toMatchObject({ state: 'released' });
        expect(dispute).toMatchObject({ kind: 'report', state: 'open' });
        outcomes.add('completed first');
      } else {
        // The report came first: it holds the booking, the completion is refused and nothing is released.
        expect(completed.status).toBe(409);
        expect((completed as unknown as CallResult<{ code: string }>).body.code).toBe('dispute_on_hold');
        expect(booking).toMatchObject({ status: 'confirmed', onHoldDisputeId: dispute!.id });
        expect(payment).toMatchObject({ state: 'held' });
        expect(dispute).toMatchObject({ kind: 'hold', state: 'open' });
        outcomes.add('reported first');
      }
      expect(await ledgerTotal(db())).toBe(0);
    }
    // Not asserted (the scheduler decides), but printed: the race ran both ways or one way.
    console.log(`report vs completion outcomes: ${[...outcomes].join(', ')}`);
  });

  it('a card dispute (chargeback) and a completion at the same moment: one wins, the money follows it (10 rounds)', async () => {
    const outcomes = new Set<string>();
    for (let round = 0; round < 10; round++) {
      const s = await confirmed(1, `Chargeback race ${round}`);
      const [payment] = await db().select().from(payments).where(eq(payments.bookingId, s.bookingId));
      // The test bank's events are stored through instance b; its job applies them there while a completes.
      const raised = await b('POST', `/admin/payments/${payment!.id}/chargeback`, {
        cookie: admins[0]!.token,
        body: {},
      });
      expect(raised.status).toBe(204);
      const [, completed] = await Promise.all([
        ctx.apps[1].jobs.runDue(),
        complete(s.driver.token, s.bookingId, s.code),
      ]);
      // Applied by b's run, or by a worker that claimed the job first: wait until it has been.
      await until('the card dispute applied', async () => {
        await ctx.apps[1].jobs.runDue();
        const [row] = await db().select().from(chargebacks).where(eq(chargebacks.paymentId, payment!.id));
        return Number(row?.lostCents) > 0;
      });
      const [booking] = await db().select().from(bookings).where(eq(bookings.id, s.bookingId));
      const [after] = await db().select().from(payments).where(eq(payments.id, payment!.id));
      const [cb] = await db().select().from(chargebacks).where(eq(chargebacks.paymentId, payment!.id));
      // Either way the bank's withdrawal is the platform's loss, once.
      expect(cb).toMatchObject({ lostCents: TOTAL + TEST_CHARGEBACK_FEE_CENTS });
      if (completed.status === 200) {
        // The completion came first: the driver is paid and keeps it; nothing is held.
        expect(booking).toMatchObject({ status: 'completed', onHoldChargebackId: null });
        expect(after).toMatchObject({ state: 'released' });
        outcomes.add('completed first');
      } else {
        expect(completed.status).toBe(409);
        expect((completed as unknown as CallResult<{ code: string }>).body.code).toBe('chargeback_on_hold');
        expect(booking).toMatchObject({ status: 'confirmed', onHoldChargebackId: cb!.id });
        expect(after).toMatchObject({ state: 'held' });
        outcomes.add('chargeback first');
      }
      expect(await ledgerTotal(db())).toBe(0);
    }
    console.log(`chargeback vs completion outcomes: ${[...outcomes].join(', ')}`);
  });

  /**
   * Resolves once a statement of the app waits on a row lock of `bookings` (matching `pattern`), then lets the held
   * transaction go (`release`), whether the wait was seen or not: a request that took long to get there on a loaded
   * machine (a report decodes its photo first) must fail the test, never leave the held transaction open (the
   * suite's teardown then waited for it until its hook timed out, in CI). The bound is the test's own.
   */
  const waitsOnBookings = async (pattern: string, release: () => void) => {
    try {
      await until(
        `a statement waits on the booking (${pattern})`,
        async () => {
          const r = await db().execute(
            sql`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and query ilike ${pattern}`,
          );
          return rowsOf<{ n: number }>(r)[0]!.n > 0;
        },
        25_000,
      );
    } finally {
      release();
    }
  };

  type Tx = Parameters<Parameters<ReturnType<typeof db>['transaction']>[0]>[0];
  /**
   * Runs `writes` in a transaction held open, its row locks kept, until `commit()`. Settles once the writes are in,
   * so that the request raced against them finds the rows already locked (sent sooner, it could take the lock first).
   */
  const heldOpen = async (writes: (tx: Tx) => Promise<void>) => {
    let commit!: () => void;
    const released = new Promise<void>((r) => (commit = r));
    let wrote!: () => void;
    const written = new Promise<void>((r) => (wrote = r));
    const transaction = db().transaction(async (tx) => {
      await writes(tx);
      wrote();
      await released;
    });
    await Promise.race([written, transaction]);
    return { commit, transaction };
  };

  it("a report committing while a completion waits on the booking's row: the completion is refused, nothing released, its photo not kept", async () => {
    const s = await confirmed(1, 'Report lands first');
    await act(s.driver.token, s.bookingId, 'pickup');
    const [payment] = await db().select().from(payments).where(eq(payments.bookingId, s.bookingId));
    // The report's own writes (the dispute and the booking's hold), held open with the booking's row lock.
    const reporting = await heldOpen(async (tx) => {
      const [d] = await tx
        .insert(disputes)
        .values({
          bookingId: s.bookingId,
          paymentId: payment!.id,
          reporterId: s.requester.user.id,
          reporterRole: 'requester',
          kind: 'hold',
          reason: 'damaged',
          details: 'Broken.',
        })
        .returning({ id: disputes.id });
      await tx.update(bookings).set({ onHoldDisputeId: d!.id }).where(eq(bookings.id, s.bookingId));
    });
    // The completion has read the booking (no hold yet) and checked the code; its guarded update (inside the move's
    // one statement, rr_booking_move) now waits.
    // With a handoff photo: it is stored in the move's transaction, so the refusal takes it back too.
    const completed = complete(s.driver.token, s.bookingId, s.code, { bytes: await testImage('png', 64, 48) });
    await waitsOnBookings('%rr_booking_move%', reporting.commit);
    await reporting.transaction;
    const answer = await completed;
    expect(answer.status).toBe(409);
    expect((answer.body as unknown as { code: string }).code).toBe('dispute_on_hold');
    const [after] = await db().select().from(payments).where(eq(payments.id, payment!.id));
    expect(after).toMatchObject({ state: 'held' });
    const [booking] = await db().select().from(bookings).where(eq(bookings.id, s.bookingId));
    expect(booking).toMatchObject({ status: 'confirmed' });
    expect(await db().select().from(bookingPhotos).where(eq(bookingPhotos.bookingId, s.bookingId))).toEqual([]);
    expect(await ledgerTotal(db())).toBe(0);
  });

  it("a completion committing while a report waits on the booking's row: the report sees it completed and holds nothing", async () => {
    const s = await confirmed(1, 'Completion lands first');
    await act(s.driver.token, s.bookingId, 'pickup');
    // A completion's move of the booking, held open with its row lock.
    const completing = await heldOpen(async (tx) => {
      await tx
        .update(bookings)
        .set({ status: 'completed', deliveryCode: null, endedAt: sql`clock_timestamp()` })
        .where(eq(bookings.id, s.bookingId));
      await tx
        .update(payments)
        .set({ state: 'released', settledAt: sql`clock_timestamp()` })
        .where(eq(payments.bookingId, s.bookingId));
    });
    const reported = b<BookingDetail>('POST', `/bookings/${s.bookingId}/dispute`, {
      cookie: s.requester.token,
      form: reportForm(),
    });
    await waitsOnBookings('%from "bookings"%for update%', completing.commit);
    await completing.transaction;
    const answer = await reported;
    expect(answer.status).toBe(200);
    const [dispute] = await db().select().from(disputes).where(eq(disputes.bookingId, s.bookingId));
    expect(dispute).toMatchObject({ kind: 'report' });
    const [booking] = await db().select().from(bookings).where(eq(bookings.id, s.bookingId));
    expect(booking).toMatchObject({ status: 'completed', onHoldDisputeId: null });
  });

  it('two moderators deciding one dispute at once: one decision, one posting (10 rounds)', async () => {
    for (let round = 0; round < 10; round++) {
      const s = await confirmed(1, `Decide ${round}`);
      await act(s.driver.token, s.bookingId, 'pickup');
      const reported = await a<BookingDetail>('POST', `/bookings/${s.bookingId}/dispute`, {
        cookie: s.requester.token,
        form: reportForm(),
      });
      const id = reported.body.dispute!.id;
      const answers = await Promise.all([
        a<AdminDispute>('POST', `/admin/disputes/${id}/decision`, {
          cookie: admins[0]!.token,
          body: { decision: 'release', note: 'Release it.' },
        }),
        b<AdminDispute>('POST', `/admin/disputes/${id}/decision`, {
          cookie: admins[1]!.token,
          body: { decision: 'refund', note: 'Refund it.' },
        }),
      ]);
      expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
      const winner = answers.find((r) => r.status === 200)!.body;
      const [payment] = await db().select().from(payments).where(eq(payments.bookingId, s.bookingId));
      const postings = rowsOf<{ kind: string }>(
        await db().execute(
          // The refund's provider job may already have posted refund_sent: only the decision's own postings count.
          sql`select kind from ledger_transactions where payment_id = ${payment!.id} and kind not in ('hold', 'refund_sent')`,
        ),
      );
      if (winner.decision!.decision === 'release') {
        expect(payment).toMatchObject({ state: 'released', refundedCents: 0 });
        expect(postings.map((p) => p.kind)).toEqual(['release']);
      } else {
        expect(payment).toMatchObject({ state: 'refunded' });
        expect(postings.map((p) => p.kind)).toEqual(['refund']);
      }
      expect(await ledgerTotal(db())).toBe(0);
    }
  });
});
