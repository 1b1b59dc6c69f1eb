import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { PAYMENT_ERRORS } from '../../shared/payments';
import { rowsOf } from '../db/result-rows';
import { jobs, payments } from '../db/schema';
import { setupTestApp } from '../test/harness';
import { lifecycleHelpers, TEST_CARD } from '../test/lifecycle';
import { bookingParties } from '../test/payments';
import { CREDIT_CHANGED_MESSAGE } from './flow';
import { balances, creditBalance, ledgerTotal, post } from './ledger';

/**
 * RuralRoute credit (issue 36, decision 032): what an approved Delivery Guarantee claim pays beyond the card's part
 * waits in the requester's `credit:<user>` account and pays their next deliveries before the card. A refund gives the
 * credit part back as credit first, the rest to the card.
 */
const { ctx, call, signUpAndIn } = setupTestApp({
  AUTH_PER_IP_MAX: '100000',
  WRITE_LIMIT_PER_USER_MAX: '100000',
  // The tests drive the job worker (app.jobs.runDue) themselves.
  JOBS_POLL_MS: '3600000',
});
const { act, story, booking, request, postRequest, offer } = lifecycleHelpers(call, signUpAndIn);

// requestBody's compensation is '12.5': the driver receives $12.50, the fee is $1.25, the total is $13.75.
const TOTAL = 1375;
const db = () => ctx.database.db;

/** Gives a person credit as an approved claim would (the claim's own path is tested in disputes.api.test.ts). */
async function giveCredit(userId: string, cents: number) {
  await db().transaction((tx) =>
    post(tx, {
      kind: 'guarantee_claim',
      key: `test:credit:${userId}:${cents}:${Math.random()}`,
      lines: [
        { account: 'outside', amount: -cents },
        { account: { credit: userId }, amount: cents },
      ],
    }),
  );
}

async function chargesFor(requestId: string) {
  return rowsOf<{ amount_cents: string; refunded_cents: string }>(
    await db().execute(
      sql`select amount_cents::text, refunded_cents::text from test_provider_charges
          where metadata->>'request_id' = ${requestId} and status = 'succeeded'`,
    ),
  ).map((c) => ({ amount: Number(c.amount_cents), refunded: Number(c.refunded_cents) }));
}

const paymentOf = async (bookingId: string) =>
  (await db().select().from(payments).where(eq(payments.bookingId, bookingId)))[0]!;

async function runRefunds(paymentId: string) {
  await db()
    .update(jobs)
    .set({ runAt: sql`now()` })
    .where(eq(jobs.dedupeKey, `payment:${paymentId}:refund`));
  await ctx.app.jobs.runDue();
}

describe('RuralRoute credit pays before the card', () => {
  it('the quote shows it; choosing charges the card only the rest', async () => {
    const s = await story(1);
    const bookingId = s.offers[0]!.id;
    await giveCredit(s.requester.user.id, 500);
    expect((await booking(s.requester.token, bookingId)).body.payment_quote).toMatchObject({
      total_cents: TOTAL,
      credit_cents: 500,
      card_cents: TOTAL - 500,
    });
    expect((await request(s.requester.token, s.request.id)).body.payment_quote).toMatchObject({ credit_cents: 500 });
    // The driver never sees the requester's credit.
    expect((await booking(s.drivers[0]!.token, bookingId)).body.payment_quote).toBeNull();
    const chosen = await act(s.requester.token, bookingId, 'choose', { card: TEST_CARD });
    expect(chosen.status).toBe(200);
    expect(chosen.body.payment).toMatchObject({ state: 'held', total_cents: TOTAL, credit_cents: 500 });
    expect(await chargesFor(s.request.id)).toEqual([{ amount: TOTAL - 500, refunded: 0 }]);
    expect(await creditBalance(db(), s.requester.user.id)).toBe(0);
    expect(await balances(db(), [{ held: (await paymentOf(bookingId)).id }])).toEqual([TOTAL]);
    const paid = await call<{ items: { credit_cents: number }[] }>('GET', '/payments/paid', {
      cookie: s.requester.token,
    });
    expect(paid.body.items[0]).toMatchObject({ credit_cents: 500 });
    expect(await ledgerTotal(db())).toBe(0);
  });

  it('credit that covers it all needs no card, and nothing is charged', async () => {
    const s = await story(1);
    const bookingId = s.offers[0]!.id;
    await giveCredit(s.requester.user.id, 2000);
    expect(
      (await call<{ balance_cents: number }>('GET', '/payments/credit', { cookie: s.requester.token })).body,
    ).toEqual({ balance_cents: 2000 });
    expect((await booking(s.requester.token, bookingId)).body.payment_quote).toMatchObject({
      credit_cents: TOTAL,
      card_cents: 0,
    });
    const chosen = await act(s.requester.token, bookingId, 'choose', {});
    expect(chosen.status).toBe(200);
    expect(await chargesFor(s.request.id)).toEqual([]);
    expect(await paymentOf(bookingId)).toMatchObject({ state: 'held', creditCents: TOTAL, providerChargeId: null });
    expect(await creditBalance(db(), s.requester.user.id)).toBe(2000 - TOTAL);
    // Cancelled by the driver: everything back, as credit (the card paid nothing).
    const cancelled = await act(s.drivers[0]!.token, bookingId, 'cancel', { reason: 'plans_changed' });
    expect(cancelled.status).toBe(200);
    expect(await creditBalance(db(), s.requester.user.id)).toBe(2000);
    const [refundJob] = await db()
      .select()
      .from(jobs)
      .where(eq(jobs.dedupeKey, `payment:${(await paymentOf(bookingId)).id}:refund`));
    expect(refundJob).toBeUndefined();
    expect(await ledgerTotal(db())).toBe(0);
  });

  it('a refund gives the credit part back as credit first, the rest to the card', async () => {
    const s = await story(1);
    const bookingId = s.offers[0]!.id;
    await giveCredit(s.requester.user.id, 500);
    await act(s.requester.token, bookingId, 'choose', { card: TEST_CARD });
    await act(s.drivers[0]!.token, bookingId, 'pickup');
    // The requester cancels after pickup: the driver keeps half the compensation ($6.25); $7.50 is refunded.
    const cancelled = await act(s.requester.token, bookingId, 'cancel', { reason: 'plans_changed' });
    expect(cancelled.status).toBe(200);
    const p = await paymentOf(bookingId);
    expect(p).toMatchObject({ state: 'partly_refunded', refundedCents: 750, creditCents: 500 });
    expect(await creditBalance(db(), s.requester.user.id)).toBe(500);
    await runRefunds(p.id);
    expect(await chargesFor(s.request.id)).toEqual([{ amount: TOTAL - 500, refunded: 250 }]);
    const [pending] = await balances(db(), ['refunds_pending']);
    expect(pending).toBe(0);
    expect(await ledgerTotal(db())).toBe(0);
  });
});

describe('a crash between the charge of the card part and choose’s commit', () => {
  it('is repaired by reconciliation: the card part refunded, the credit never taken', async () => {
    const s = await story(1);
    const bookingId = s.offers[0]!.id;
    await giveCredit(s.requester.user.id, 500);
    const booking = await bookingParties(db(), bookingId);
    // The process charged the card's part, then died before choose's transaction (which takes the credit) committed.
    const charged = await ctx.app.payments.chargeForChoice(booking, {
      card: { number: '4242424242424242', expiry: TEST_CARD.expiry, cvc: TEST_CARD.cvc, zip: TEST_CARD.zip },
    });
    expect(charged).toMatchObject({ creditCents: 500 });
    expect(await creditBalance(db(), s.requester.user.id)).toBe(500);
    expect(await ctx.app.payments.repairStale(new Date(Date.now() + 11 * 60_000))).toBe(1);
    await ctx.app.jobs.runDue();
    expect(await paymentOf(bookingId)).toMatchObject({ state: 'voided' });
    expect(await chargesFor(s.request.id)).toEqual([{ amount: TOTAL - 500, refunded: TOTAL - 500 }]);
    expect(await creditBalance(db(), s.requester.user.id)).toBe(500);
    expect(await ledgerTotal(db())).toBe(0);
  });
});

describe.skipIf(!process.env.DATABASE_URL)('two choices spending the same credit at once (real PostgreSQL)', () => {
  it('one spends it; the other fails whole, its charge voided, and goes through on a second try', async () => {
    // Two requests of one requester, each with one offer.
    const requester = await signUpAndIn('Ana Diaz');
    const a = await signUpAndIn('Driver A');
    const b = await signUpAndIn('Driver B');
    const r1 = await postRequest(requester.token, 'Eggs');
    const r2 = await postRequest(requester.token, 'Feed');
    const o1 = await offer(a.token, r1.id);
    const o2 = await offer(b.token, r2.id);
    await giveCredit(requester.user.id, TOTAL);
    const answers = await Promise.all([
      act(requester.token, o1.id, 'choose', {}),
      act(requester.token, o2.id, 'choose', {}),
    ]);
    expect(answers.filter((x) => x.status === 200)).toHaveLength(1);
    // The other fails whole, whichever way the two met: it counted the credit before the first spent it (409, the
    // credit changed meanwhile: its card part, if any, voided), or after (400: nothing left to spend, a card needed).
    const lost = answers.find((x) => x.status !== 200)!;
    const refusal = lost.body as unknown as { code: string; message: string };
    expect([
      { status: 409, code: 'payment_in_progress', message: CREDIT_CHANGED_MESSAGE },
      { status: 400, code: 'payment_required', message: PAYMENT_ERRORS.payment_required.message },
    ]).toContainEqual({ status: lost.status, code: refusal.code, message: refusal.message });
    expect(await creditBalance(db(), requester.user.id)).toBe(0);
    // The second try pays by card: the credit is spent.
    const retryId = answers[0] === lost ? o1.id : o2.id;
    const retry = await act(requester.token, retryId, 'choose', { card: TEST_CARD });
    expect(retry.status).toBe(200);
    expect(retry.body.payment).toMatchObject({ credit_cents: 0 });
    expect(await ledgerTotal(db())).toBe(0);
  });
});
