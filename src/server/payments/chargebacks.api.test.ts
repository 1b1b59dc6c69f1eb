import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AdminDispute } from '../../shared/disputes';
import type { BookingDetail } from '../../shared/lifecycle';
import type { Page } from '../../shared/marketplace';
import {
  CHARGEBACK_ERRORS,
  TEST_CHARGEBACK_FEE_CENTS,
  type AdminChargeback,
  type AdminPayments,
  type EarnedItem,
  type PaidItem,
  type Reconciliation,
} from '../../shared/payments';
import { bookings, chargebacks, disputes, notifications, paymentWebhookEvents, payments, users } from '../db/schema';
import { endHeldBooking } from '../bookings';
import { setupTestApp, STRONG_PASSWORD } from '../test/harness';
import { lifecycleHelpers } from '../test/lifecycle';
import { balances, ledgerTotal, post } from './ledger';
import { paymentWebhookHandler } from './stripe-webhooks';

/**
 * Chargebacks raised by the test provider's bank from the admin payments page (issue 36): the same events Stripe
 * sends (charge.dispute.created, .funds_withdrawn, .closed), stored once and applied by the same job. The Stripe
 * deliveries themselves, each twice, are in stripe-provider.api.test.ts; the race with a completion on two instances
 * in disputes-concurrency.api.test.ts.
 */
const { ctx, call, signUpAndIn, signIn } = setupTestApp({
  AUTH_PER_IP_MAX: '100000',
  WRITE_LIMIT_PER_USER_MAX: '100000',
  // The tests drive the job worker (app.jobs.runDue) themselves.
  JOBS_POLL_MS: '3600000',
});
const { act, confirmed, complete, story } = lifecycleHelpers(call, signUpAndIn);

// requestBody's compensation is '12.5': the driver receives $12.50, the fee is $1.25, the total is $13.75.
const COMPENSATION = 1250;
const TOTAL = 1375;
const FEE = TEST_CHARGEBACK_FEE_CENTS;
const db = () => ctx.database.db;
const attempt = (n: number) => ({ id: 0, kind: 'payment_webhook', attempt: n });

let admin: { token: string; user: { id: string } };
beforeAll(async () => {
  const account = await signUpAndIn('Pay Admin');
  await db().update(users).set({ role: 'admin' }).where(eq(users.id, account.user.id));
  admin = { ...account, token: await signIn(account.email, STRONG_PASSWORD) };
});

const paymentOf = async (bookingId: string) =>
  (await db().select().from(payments).where(eq(payments.bookingId, bookingId)))[0]!;
const bookingOf = async (bookingId: string) =>
  (await db().select().from(bookings).where(eq(bookings.id, bookingId)))[0]!;
const chargebackOf = async (paymentId: string) =>
  (await db().select().from(chargebacks).where(eq(chargebacks.paymentId, paymentId)))[0]!;
/** A person's chargeback notices, oldest first (their data's kind). */
const noticesOf = async (userId: string) =>
  (
    await db()
      .select({ data: notifications.data })
      .from(notifications)
      .where(and(eq(notifications.userId, userId), eq(notifications.type, 'chargeback')))
      .orderBy(notifications.createdAt, notifications.id)
  ).map((n) => ({ kind: (n.data as { kind: string }).kind }));
const losses = async () => -(await balances(db(), ['chargeback_losses']))[0]!;
const raise = (paymentId: string, token = admin.token) =>
  call<{ code?: string; message?: string }>('POST', `/admin/payments/${paymentId}/chargeback`, {
    cookie: token,
    body: {},
  });
const close = (chargebackId: string, body: unknown, token = admin.token) =>
  call<{ code?: string; message?: string }>('POST', `/admin/payments/chargebacks/${chargebackId}/close`, {
    cookie: token,
    body,
  });
const list = () => call<Page<AdminChargeback>>('GET', '/admin/payments/chargebacks', { cookie: admin.token });

async function heldBooking(title?: string) {
  const s = await confirmed(1, title);
  return { ...s, payment: await paymentOf(s.bookingId) };
}

describe("the test provider's bank, from the admin payments page", () => {
  it('raises one on a held payment: on hold, the loss recorded, listed; lost: the held money covers the amount', async () => {
    const s = await heldBooking();
    const before = await losses();
    expect((await raise(s.payment.id)).status).toBe(204);
    await ctx.app.jobs.runDue();
    const cb = await chargebackOf(s.payment.id);
    expect(cb).toMatchObject({
      provider: 'test',
      status: 'needs_response',
      amountCents: TOTAL,
      lostCents: TOTAL + FEE,
    });
    expect(await losses()).toBe(before + TOTAL + FEE);
    expect((await bookingOf(s.bookingId)).onHoldChargebackId).toBe(cb.id);
    expect(await noticesOf(s.driver.user.id)).toEqual([{ kind: 'opened' }]);
    const page = await call<BookingDetail>('GET', `/bookings/${s.bookingId}`, { cookie: s.requester.token });
    expect(page.body.payment).toMatchObject({ state: 'held', on_hold: true, chargeback: true });
    expect(page.body.can_report_problem).toBe(false);
    expect(await complete(s.driver.token, s.bookingId, s.code)).toMatchObject({
      status: 409,
      body: { code: 'chargeback_on_hold' },
    });
    // Reporting a problem meanwhile is refused too: the bank decides this payment.
    const form = new FormData();
    form.set('reason', 'other');
    form.set('details', 'Never came.');
    expect(await call('POST', `/bookings/${s.bookingId}/dispute`, { cookie: s.requester.token, form })).toMatchObject({
      status: 409,
      body: { code: 'chargeback_on_hold' },
    });

    const listed = (await list()).body.items.find((c) => c.id === cb.id);
    expect(listed).toMatchObject({
      payment_id: s.payment.id,
      booking_id: s.bookingId,
      status: 'needs_response',
      amount_cents: TOTAL,
      fee_cents: FEE,
      lost_cents: TOTAL + FEE,
      payment_state: 'held',
      on_hold: true,
      driver_received_cents: 0,
      test_mode: true,
    });
    const overview = await call<AdminPayments>('GET', '/admin/payments', { cookie: admin.token });
    expect(overview.body.totals.chargeback_losses_cents).toBe(before + TOTAL + FEE);

    expect((await close(cb.id, { outcome: 'lost' })).status).toBe(204);
    await ctx.app.jobs.runDue();
    expect(await chargebackOf(s.payment.id)).toMatchObject({ status: 'lost', lostCents: FEE });
    expect(await losses()).toBe(before + FEE);
    expect(await paymentOf(s.bookingId)).toMatchObject({ state: 'refunded', refundedCents: TOTAL });
    expect(await bookingOf(s.bookingId)).toMatchObject({ status: 'cancelled', onHoldChargebackId: null });
    // The driver was told when it was held and when it ended; the requester when it ended.
    expect(await noticesOf(s.driver.user.id)).toEqual([{ kind: 'opened' }, { kind: 'lost' }]);
    expect(await noticesOf(s.requester.user.id)).toEqual([{ kind: 'lost' }]);
    const after = await call<BookingDetail>('GET', `/bookings/${s.bookingId}`, { cookie: s.driver.token });
    expect(after.body.payment).toMatchObject({ chargeback: true, on_hold: false });
    expect(await ledgerTotal(db())).toBe(0);
    // Reconciliation finds the charge as the bank left it: no refund was sent, none is expected.
    const run = await call<Reconciliation>('POST', '/admin/payments/reconcile', { cookie: admin.token, body: {} });
    expect(run.status).toBe(200);
    expect(run.body.differences.filter((d) => d.id === s.payment.id)).toEqual([]);
  });

  it('won: the amount and fee come back, the hold is lifted and the delivery completes and releases as usual', async () => {
    const s = await heldBooking();
    const before = await losses();
    await raise(s.payment.id);
    await ctx.app.jobs.runDue();
    const cb = await chargebackOf(s.payment.id);
    expect((await close(cb.id, { outcome: 'won' })).status).toBe(204);
    await ctx.app.jobs.runDue();
    expect(await chargebackOf(s.payment.id)).toMatchObject({ status: 'won', lostCents: 0 });
    expect(await noticesOf(s.driver.user.id)).toEqual([{ kind: 'opened' }, { kind: 'won' }]);
    expect(await losses()).toBe(before);
    expect((await complete(s.driver.token, s.bookingId, s.code)).status).toBe(200);
    expect(await paymentOf(s.bookingId)).toMatchObject({ state: 'released' });
    const page = await call<BookingDetail>('GET', `/bookings/${s.bookingId}`, { cookie: s.requester.token });
    expect(page.body.payment).toMatchObject({ state: 'released', chargeback: false });
    expect(await ledgerTotal(db())).toBe(0);
  });

  it('released money is not taken back: the admin sees what the driver received and still has available', async () => {
    const s = await heldBooking();
    expect((await complete(s.driver.token, s.bookingId, s.code)).status).toBe(200);
    const driverBefore = (await balances(db(), [{ driver: s.driver.user.id }]))[0]!;
    await raise(s.payment.id);
    await ctx.app.jobs.runDue();
    const cb = await chargebackOf(s.payment.id);
    await close(cb.id, { outcome: 'lost' });
    await ctx.app.jobs.runDue();
    expect((await balances(db(), [{ driver: s.driver.user.id }]))[0]).toBe(driverBefore);
    // The requester's payment reads 'Chargeback'; the driver's earning, theirs to keep, still reads 'Released'.
    const paid = await call<Page<PaidItem>>('GET', '/payments/paid', { cookie: s.requester.token });
    expect(paid.body.items.find((p) => p.id === s.payment.id)).toMatchObject({ chargeback: true });
    const earned = await call<Page<EarnedItem>>('GET', '/payments/earned', { cookie: s.driver.token });
    expect(earned.body.items.find((p) => p.id === s.payment.id)).toMatchObject({
      state: 'released',
      chargeback: false,
    });
    expect((await list()).body.items.find((c) => c.id === cb.id)).toMatchObject({
      status: 'lost',
      payment_state: 'released',
      lost_cents: TOTAL + FEE,
      driver_received_cents: COMPENSATION,
      driver_available_cents: driverBefore,
      on_hold: false,
    });
    expect(await ledgerTotal(db())).toBe(0);
  });

  it('a moderator cannot move the money of a charged-back payment (a reported problem holding it waits for the bank)', async () => {
    const s = await heldBooking();
    expect((await act(s.driver.token, s.bookingId, 'pickup')).status).toBe(200);
    const form = new FormData();
    form.set('reason', 'damaged');
    form.set('details', 'The box was crushed.');
    expect((await call('POST', `/bookings/${s.bookingId}/dispute`, { cookie: s.requester.token, form })).status).toBe(
      200,
    );
    const [dispute] = await db().select().from(disputes).where(eq(disputes.bookingId, s.bookingId));
    await raise(s.payment.id);
    await ctx.app.jobs.runDue();
    // The moderators' queue shows the payment as charged back.
    const queue = await call<Page<AdminDispute>>('GET', '/admin/disputes', { cookie: admin.token });
    expect(queue.body.items.find((d) => d.id === dispute!.id)?.payment).toMatchObject({ chargeback: true });
    const decided = await call('POST', `/admin/disputes/${dispute!.id}/decision`, {
      cookie: admin.token,
      body: { decision: 'refund', note: 'Refunding.' },
    });
    expect(decided).toMatchObject({ status: 409, body: { code: 'chargeback_on_hold' } });
    expect(await paymentOf(s.bookingId)).toMatchObject({ state: 'held' });
    // The bank decides for the cardholder: the held money covers it, and the reported problem closes with it.
    await close((await chargebackOf(s.payment.id)).id, { outcome: 'lost' });
    await ctx.app.jobs.runDue();
    const [closed] = await db().select().from(disputes).where(eq(disputes.id, dispute!.id));
    expect(closed).toMatchObject({ state: 'resolved', decision: 'refund', refundCents: TOTAL, decidedBy: null });
    expect(await bookingOf(s.bookingId)).toMatchObject({
      status: 'cancelled',
      onHoldDisputeId: null,
      onHoldChargebackId: null,
    });
    expect(await ledgerTotal(db())).toBe(0);
  });

  it('refuses: a second dispute of one payment, closing twice, a payment without a card charge, bad input, strangers', async () => {
    const s = await heldBooking();
    expect((await raise(s.payment.id)).status).toBe(204);
    expect(await raise(s.payment.id)).toMatchObject({
      status: 409,
      body: { code: 'chargeback_open', message: CHARGEBACK_ERRORS.chargeback_open.message },
    });
    await ctx.app.jobs.runDue();
    const cb = await chargebackOf(s.payment.id);
    expect(await close(cb.id, { outcome: 'maybe' })).toMatchObject({ status: 400, body: { code: 'validation_error' } });
    expect(await close(cb.id, 'lost')).toMatchObject({ status: 400 });
    expect((await close(cb.id, { outcome: 'won' })).status).toBe(204);
    expect(await close(cb.id, { outcome: 'lost' })).toMatchObject({ status: 409, body: { code: 'chargeback_closed' } });
    expect(await raise(s.payment.id)).toMatchObject({ status: 409, body: { code: 'chargeback_open' } });
    // Paid by RuralRoute credit alone: no card charge to dispute.
    const credited = await story(1);
    await db().transaction((tx) =>
      post(tx, {
        kind: 'guarantee_claim',
        key: `test:credit:${credited.requester.user.id}`,
        lines: [
          { account: 'outside', amount: -TOTAL },
          { account: { credit: credited.requester.user.id }, amount: TOTAL },
        ],
      }),
    );
    expect((await act(credited.requester.token, credited.offers[0]!.id, 'choose', {})).status).toBe(200);
    expect(await raise((await paymentOf(credited.offers[0]!.id)).id)).toMatchObject({
      status: 409,
      body: { code: 'chargeback_not_possible' },
    });
    expect((await raise('not-a-uuid')).status).toBe(404);
    expect((await raise('00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await close('00000000-0000-4000-8000-000000000000', { outcome: 'won' })).status).toBe(404);
    // Not an admin: the routes do not exist for them.
    expect((await raise(s.payment.id, s.requester.token)).status).toBe(404);
    expect((await close(cb.id, { outcome: 'lost' }, s.driver.token)).status).toBe(404);
    expect((await call('GET', '/admin/payments/chargebacks', { cookie: s.driver.token })).status).toBe(404);
  });

  it('a crash while applying an event leaves nothing half done: the next run applies it once', async () => {
    const s = await heldBooking();
    const before = await losses();
    await raise(s.payment.id);
    await ctx.app.jobs.runDue();
    const cb = await chargebackOf(s.payment.id);
    // The bank's closing event, stored as a delivery would store it (its job is this test's to run).
    const [withdrawn] = await db()
      .select()
      .from(paymentWebhookEvents)
      .where(
        and(
          eq(paymentWebhookEvents.type, 'charge.dispute.funds_withdrawn'),
          sql`${paymentWebhookEvents.payload} -> 'data' -> 'object' ->> 'id' = ${cb.providerDisputeId}`,
        ),
      );
    const object = (withdrawn!.payload as { data: { object: Record<string, unknown> } }).data.object;
    const event = { id: `evt_crash_${cb.id}`, provider: 'test', type: 'charge.dispute.closed' };
    await db()
      .insert(paymentWebhookEvents)
      .values({ ...event, payload: { ...event, data: { object: { ...object, status: 'lost' } } } });
    // The process dies in the middle of the transaction (after the money moved, while ending the booking).
    const dying = paymentWebhookHandler(db(), ctx.app.payments.provider, async () => {
      throw new Error('the process died');
    });
    await expect(dying({ eventId: event.id }, attempt(1))).rejects.toThrow('the process died');
    expect(await paymentOf(s.bookingId)).toMatchObject({ state: 'held' });
    expect(await losses()).toBe(before + TOTAL + FEE);
    expect(
      (await db().select().from(paymentWebhookEvents).where(eq(paymentWebhookEvents.id, event.id)))[0],
    ).toMatchObject({ processedAt: null });
    // The job runs again (as the queue retries it), then once more: applied once.
    const handler = paymentWebhookHandler(db(), ctx.app.payments.provider, endHeldBooking);
    await handler({ eventId: event.id }, attempt(2));
    await handler({ eventId: event.id }, attempt(3));
    await ctx.app.jobs.runDue();
    expect(await losses()).toBe(before + FEE);
    expect(await paymentOf(s.bookingId)).toMatchObject({ state: 'refunded', refundedCents: TOTAL });
    expect(await bookingOf(s.bookingId)).toMatchObject({ status: 'cancelled' });
    expect(await ledgerTotal(db())).toBe(0);
  });
});
