/**
 * PAYMENTS_PROVIDER=stripe, through the real app and the real `stripe` SDK. Stripe itself is out of reach here (no
 * internet), so its API is a local HTTP server standing in for it (test/stripe-stand-in.ts), reached through the
 * SDK's own host, port and protocol settings (STRIPE_API_BASE). The stand-in records what the SDK sent and the tests
 * assert on it: amounts, currency, Idempotency-Key, transfer group, metadata. Everything else is real: the routes,
 * the payment flow, the ledger, the job queue and the database. Webhook signatures are made with the SDK's own
 * test-header helper.
 */
import { and, eq, sql } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookingDetail, RequestDetail } from '../../shared/lifecycle';
import { CARD_DECLINED_MESSAGE, type AdminChargeback } from '../../shared/payments';
import { rowsOf } from '../db/result-rows';
import { bookings, chargebacks, jobs, paymentWebhookEvents, payments, payoutAccounts, users } from '../db/schema';
import { setupTestApp, STRONG_PASSWORD } from '../test/harness';
import { lifecycleHelpers, TEST_CARD } from '../test/lifecycle';
import { bookingParties, bookingStateOf } from '../test/payments';
import { createStripeStandIn, stripeEventBody } from '../test/stripe-stand-in';
import { chargeKey, PAYMENT_REQUIRED_MESSAGE } from './flow';
import { balances, ledgerTotal } from './ledger';
import { PAYOUT_RUN_JOB } from './payouts';
import { PAYMENT_WEBHOOK_JOB, WEBHOOK_SIGNATURE_MESSAGE } from './stripe-webhooks';

const SECRET_KEY = 'sk_test_ruralroute';
const PUBLISHABLE_KEY = 'pk_test_ruralroute';
const WEBHOOK_SECRET = 'whsec_ruralroute_test';

const stand = createStripeStandIn();
// Filled in before the app is made (this hook is registered before setupTestApp's): the stand-in's free port.
const env: Record<string, string> = {
  AUTH_PER_IP_MAX: '100000',
  WRITE_LIMIT_PER_USER_MAX: '100000',
  PAYMENTS_PROVIDER: 'stripe',
  STRIPE_SECRET_KEY: SECRET_KEY,
  STRIPE_PUBLISHABLE_KEY: PUBLISHABLE_KEY,
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
};
beforeAll(async () => {
  env.STRIPE_API_BASE = await stand.listen();
});
afterAll(() => stand.close());

const { ctx, call, signUpAndIn, signIn } = setupTestApp(env);
const { act, story } = lifecycleHelpers(call, signUpAndIn);
const db = () => ctx.database.db;
async function adminSession() {
  const account = await signUpAndIn('Pay Admin');
  await db().update(users).set({ role: 'admin' }).where(eq(users.id, account.user.id));
  return { ...account, token: await signIn(account.email, STRONG_PASSWORD) };
}
const provider = () => ctx.app.payments.provider;

// requestBody's compensation is '12.5': the driver receives $12.50, the fee is $1.25, the requester pays $13.75.
const COMPENSATION = 1250;
const TOTAL = 1375;

async function paidOffer() {
  const s = await story(1);
  return { ...s, driver: s.drivers[0]!, bookingId: s.offers[0]!.id };
}
const choose = (token: string, bookingId: string, paymentMethod: string) =>
  act(token, bookingId, 'choose', { payment_method: paymentMethod });
const paymentsOf = (bookingId: string) => db().select().from(payments).where(eq(payments.bookingId, bookingId));
const stateOf = (bookingId: string) => bookingStateOf(db(), bookingId);
/** The PaymentIntents the SDK asked the stand-in for, for one booking. */
const intentRequestsFor = (bookingId: string) =>
  stand.sent('POST', '/v1/payment_intents').filter((r) => r.params['metadata[booking_id]'] === bookingId);

describe('choosing a driver pays through Stripe', () => {
  it("offers Stripe's card entry: the provider and the publishable key in payment_quote, not test mode", async () => {
    const s = await paidOffer();
    const booking = await call<BookingDetail>('GET', `/bookings/${s.bookingId}`, { cookie: s.requester.token });
    expect(booking.body.payment_quote).toEqual({
      compensation_cents: COMPENSATION,
      fee_cents: TOTAL - COMPENSATION,
      total_cents: TOTAL,
      credit_cents: 0,
      card_cents: TOTAL,
      fee_waived_by: null,
      test_mode: false,
      provider: 'stripe',
      publishable_key: PUBLISHABLE_KEY,
    });
    const request = await call<RequestDetail>('GET', `/requests/${s.request.id}`, { cookie: s.requester.token });
    expect(request.body.payment_quote).toMatchObject({ provider: 'stripe', publishable_key: PUBLISHABLE_KEY });
  });

  it('one PaymentIntent, confirmed with the payment method, under the payment key and the booking transfer group', async () => {
    const s = await paidOffer();
    const res = await choose(s.requester.token, s.bookingId, 'pm_card_visa');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('confirmed');
    const [p] = await paymentsOf(s.bookingId);
    const sent = intentRequestsFor(s.bookingId);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      idempotencyKey: chargeKey(p!.id),
      authorization: `Bearer ${SECRET_KEY}`,
      params: {
        amount: String(TOTAL),
        currency: 'usd',
        payment_method: 'pm_card_visa',
        confirm: 'true',
        error_on_requires_action: 'true',
        'allowed_payment_method_types[0]': 'card',
        transfer_group: `booking:${s.bookingId}`,
        'metadata[payment_id]': p!.id,
        'metadata[booking_id]': s.bookingId,
        'metadata[request_id]': s.request.id,
        description: 'RuralRoute delivery: Feed sacks',
      },
    });
    const [charge] = [...stand.charges.values()].filter((c) => c.transfer_group === `booking:${s.bookingId}`);
    expect(p).toMatchObject({
      state: 'held',
      provider: 'stripe',
      providerChargeId: charge!.id,
      cardBrand: 'visa',
      cardLast4: '4242',
    });
    expect(await balances(db(), [{ held: p!.id }])).toEqual([TOTAL]);
    const page = await call<BookingDetail>('GET', `/bookings/${s.bookingId}`, { cookie: s.requester.token });
    expect(page.body.payment).toMatchObject({ state: 'held', card_last4: '4242', test_mode: false });
  });

  it.each([
    ['pm_card_chargeDeclined', '0002'],
    // 3-D Secure: the server confirms while the dialog waits, with no page to return to: declined, not half-paid.
    ['pm_card_authenticationRequired', '3184'],
    // A payment method Stripe does not know: the requester's input, refused like a decline, never a 500.
    ['pm_unknownToStripe', null],
  ])('%s: 402 card_declined, the payment failed and nothing else changes', async (method, last4) => {
    const s = await paidOffer();
    const before = await ledgerTotal(db());
    const res = await choose(s.requester.token, s.bookingId, method);
    expect(res).toMatchObject({ status: 402, body: { code: 'card_declined', message: CARD_DECLINED_MESSAGE } });
    expect(await stateOf(s.bookingId)).toEqual({ booking: 'pending', request: 'open' });
    expect((await paymentsOf(s.bookingId)).map((p) => [p.state, p.cardLast4])).toEqual([['failed', last4]]);
    expect(await ledgerTotal(db())).toBe(before);
    expect(intentRequestsFor(s.bookingId)).toHaveLength(1);
    // Another card then pays, under a new payment's key.
    expect((await choose(s.requester.token, s.bookingId, 'pm_card_visa')).status).toBe(200);
    const keys = intentRequestsFor(s.bookingId).map((r) => r.idempotencyKey);
    expect(new Set(keys).size).toBe(2);
  });

  it("the test provider's card fields are refused before anything is claimed or charged", async () => {
    const s = await paidOffer();
    const res = await act(s.requester.token, s.bookingId, 'choose', { card: TEST_CARD });
    expect(res).toMatchObject({ status: 400, body: { code: 'payment_required', message: PAYMENT_REQUIRED_MESSAGE } });
    expect(await paymentsOf(s.bookingId)).toEqual([]);
    expect(intentRequestsFor(s.bookingId)).toEqual([]);
    // Nothing pending blocks the request: a payment method pays at once.
    expect((await choose(s.requester.token, s.bookingId, 'pm_card_visa')).status).toBe(200);
  });
});

describe('refunds, transfers and payouts', () => {
  it('cancelling refunds through the Refunds API once, under the refund key', async () => {
    const s = await paidOffer();
    expect((await choose(s.requester.token, s.bookingId, 'pm_card_visa')).status).toBe(200);
    const cancelled = await act(s.requester.token, s.bookingId, 'cancel', { reason: 'plans_changed' });
    expect(cancelled.status).toBe(200);
    await ctx.app.jobs.runDue();
    await ctx.app.jobs.runDue();
    const [p] = await paymentsOf(s.bookingId);
    const sent = stand.sent('POST', '/v1/refunds').filter((r) => r.params.charge === p!.providerChargeId);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      idempotencyKey: `payment:${p!.id}:refund`,
      params: { charge: p!.providerChargeId, amount: String(TOTAL) },
    });
    expect(stand.charges.get(p!.providerChargeId!)).toMatchObject({ amount_refunded: TOTAL });
    expect(p).toMatchObject({ state: 'refunded', refundedCents: TOTAL });
    // The job's retry (the same key) gets Stripe's first answer back: still one refund at Stripe.
    const again = await provider().refund({
      chargeId: p!.providerChargeId!,
      amountCents: TOTAL,
      idempotencyKey: `payment:${p!.id}:refund`,
    });
    expect([...stand.refunds.values()].filter((r) => r.charge === p!.providerChargeId)).toEqual([
      expect.objectContaining({ id: again.refundId, amount: TOTAL }),
    ]);
    expect(await ledgerTotal(db())).toBe(0);
  });

  it("setting up payouts: an Express account and an onboarding link; then the account's payouts_enabled", async () => {
    const driver = await signUpAndIn('Payout Driver');
    const urls = { returnUrl: 'http://localhost/dashboard/settings', refreshUrl: 'http://localhost/payouts/refresh' };
    const first = await provider().setupPayouts({
      userId: driver.user.id,
      email: driver.email,
      accountId: null,
      ...urls,
    });
    expect(first).toMatchObject({ status: 'pending', onboardingUrl: expect.stringMatching(/^https:\/\/connect\./) });
    const [created] = stand
      .sent('POST', '/v1/accounts')
      .filter((r) => r.params['metadata[user_id]'] === driver.user.id);
    expect(created!.params).toMatchObject({
      type: 'express',
      country: 'US',
      email: driver.email,
      business_type: 'individual',
      'capabilities[transfers][requested]': 'true',
    });
    expect(created!.idempotencyKey).toBe(`payouts:${driver.user.id}:account`);
    const links = stand.sent('POST', '/v1/account_links').filter((r) => r.params.account === first.accountId);
    expect(links.map((l) => l.params)).toEqual([
      {
        account: first.accountId,
        type: 'account_onboarding',
        return_url: urls.returnUrl,
        refresh_url: urls.refreshUrl,
      },
    ]);

    // Onboarding unfinished: a second setup continues the same account with a fresh link.
    const second = await provider().setupPayouts({
      userId: driver.user.id,
      email: driver.email,
      accountId: first.accountId,
      ...urls,
    });
    expect(second).toMatchObject({ accountId: first.accountId, status: 'pending' });
    expect(
      stand.sent('POST', '/v1/accounts').filter((r) => r.params['metadata[user_id]'] === driver.user.id),
    ).toHaveLength(1);
    expect(await provider().payoutAccountStatus(first.accountId)).toBe('pending');

    // Stripe enabled payouts (the driver finished onboarding).
    stand.accounts.get(first.accountId)!.payouts_enabled = true;
    expect(await provider().payoutAccountStatus(first.accountId)).toBe('active');
    expect(
      await provider().setupPayouts({
        userId: driver.user.id,
        email: driver.email,
        accountId: first.accountId,
        ...urls,
      }),
    ).toEqual({ accountId: first.accountId, status: 'active', last4: null });
  });

  it("a transfer to the driver's connected account, under the payout key; a retry transfers nothing more", async () => {
    const driver = await signUpAndIn('Transfer Driver');
    const { accountId } = await provider().setupPayouts({
      userId: driver.user.id,
      email: driver.email,
      accountId: null,
      returnUrl: 'http://localhost/r',
      refreshUrl: 'http://localhost/f',
    });
    const payoutId = '6f1c1f0e-8d55-4c77-9d61-3a4a0f0e9b21';
    const request = {
      accountId,
      amountCents: COMPENSATION,
      currency: 'usd' as const,
      idempotencyKey: `payout:${payoutId}`,
      metadata: { payout_id: payoutId, user_id: driver.user.id },
    };
    const first = await provider().transfer(request);
    const retry = await provider().transfer(request);
    expect(retry.transferId).toBe(first.transferId);
    const sent = stand.sent('POST', '/v1/transfers').filter((r) => r.params.destination === accountId);
    expect(sent).toHaveLength(2);
    for (const r of sent)
      expect(r).toMatchObject({
        idempotencyKey: `payout:${payoutId}`,
        params: {
          amount: String(COMPENSATION),
          currency: 'usd',
          destination: accountId,
          'metadata[payout_id]': payoutId,
          'metadata[user_id]': driver.user.id,
        },
      });
    expect([...stand.transfers.values()].filter((t) => t.destination === accountId)).toHaveLength(1);
  });
});

describe('reconciliation reads Stripe', () => {
  it('finds the charge of a payment whose choice crashed before its commit, and refunds it without charging again', async () => {
    const s = await paidOffer();
    const booking = await bookingParties(db(), s.bookingId);
    // The process charged the card, then died before choose's transaction committed.
    const charged = await ctx.app.payments.chargeForChoice(booking, { paymentMethodId: 'pm_card_visa' });
    const key = chargeKey(charged!.paymentId);
    expect(await provider().findCharge(key)).toEqual({
      status: 'succeeded',
      chargeId: charged!.chargeId,
      cardBrand: 'visa',
      cardLast4: '4242',
      amountCents: TOTAL,
    });
    // Stripe's search index lags its writes: an empty search is checked against the list, which does not.
    stand.state.searchLags = true;
    try {
      const listed = stand.sent('GET', '/v1/payment_intents').length;
      expect(await provider().findCharge(key)).toMatchObject({ status: 'succeeded', chargeId: charged!.chargeId });
      expect(stand.sent('GET', '/v1/payment_intents').length).toBeGreaterThan(listed);
      // A key that never charged is found nowhere.
      expect(await provider().findCharge(chargeKey('00000000-0000-4000-8000-000000000000'))).toBeNull();
    } finally {
      stand.state.searchLags = false;
    }

    expect(await ctx.app.payments.repairStale(new Date(Date.now() + 11 * 60_000))).toBeGreaterThanOrEqual(1);
    await ctx.app.jobs.runDue();
    const [p] = await paymentsOf(s.bookingId);
    expect(p!.state).toBe('voided');
    const refunds = stand.sent('POST', '/v1/refunds').filter((r) => r.params.charge === charged!.chargeId);
    expect(refunds.map((r) => [r.idempotencyKey, r.params.amount])).toEqual([[`payment:${p!.id}:void`, String(TOTAL)]]);
    expect(intentRequestsFor(s.bookingId)).toHaveLength(1);
  });

  it('lists every charge and transfer since a time, page after page', async () => {
    const since = new Date(Date.now() - 1000);
    const s = await paidOffer();
    expect((await choose(s.requester.token, s.bookingId, 'pm_card_chargeDeclined')).status).toBe(402);
    expect((await choose(s.requester.token, s.bookingId, 'pm_card_visa')).status).toBe(200);
    stand.state.pageSize = 2;
    try {
      const charges = [];
      for await (const c of provider().listCharges(since)) charges.push(c);
      const mine = (await paymentsOf(s.bookingId)).sort((a, b) => (a.state > b.state ? 1 : -1));
      expect(charges.filter((c) => mine.some((p) => p.id === c.paymentId))).toEqual([
        expect.objectContaining({ paymentId: mine[1]!.id, status: 'succeeded', amountCents: TOTAL, refundedCents: 0 }),
        expect.objectContaining({ paymentId: mine[0]!.id, status: 'declined', amountCents: TOTAL }),
      ]);
      // Everything the stand-in holds since then (created is in whole seconds), each once, though it answered two
      // at a time.
      const attempted = [...stand.intents.values()].filter(
        (i) => i.latest_charge && (i.created as number) >= Math.floor(since.getTime() / 1000),
      );
      expect(charges.map((c) => c.chargeId).sort()).toEqual(attempted.map((i) => i.latest_charge as string).sort());

      const transfers = [];
      for await (const t of provider().listTransfers(new Date(0))) transfers.push(t);
      expect(transfers.map((t) => t.transferId).sort()).toEqual([...stand.transfers.keys()].sort());
      expect(transfers.every((t) => t.payoutId !== null)).toBe(true);
    } finally {
      stand.state.pageSize = 100;
    }
  });
});

describe('webhooks', () => {
  const PATH = '/payments/webhooks/stripe';
  const sign = (payload: string, secret = WEBHOOK_SECRET) =>
    Stripe.webhooks.generateTestHeaderString({ payload, secret });
  /** Delivers as Stripe does: no Origin, no session, the signature header over the raw body. */
  const deliver = (payload: string, signature: string | null = sign(payload)) =>
    call<{ received?: boolean; code?: string; message?: string }>('POST', PATH, {
      raw: payload,
      origin: null,
      headers: signature === null ? {} : { 'stripe-signature': signature },
    });
  let counter = 0;
  const event = stripeEventBody;
  const storedEvents = async (id: string) =>
    db().select().from(paymentWebhookEvents).where(eq(paymentWebhookEvents.id, id));
  const jobsOf = async (kind: string, where: ReturnType<typeof sql>) =>
    rowsOf<{ id: string }>(await db().execute(sql`select id::text from jobs where kind = ${kind} and ${where}`));

  /** A driver whose Stripe payout account is pending (onboarding started) and whose onboarding Stripe then enabled. */
  async function onboardedDriver() {
    const driver = await signUpAndIn('Webhook Driver');
    const { accountId } = await provider().setupPayouts({
      userId: driver.user.id,
      email: driver.email,
      accountId: null,
      returnUrl: 'http://localhost/r',
      refreshUrl: 'http://localhost/f',
    });
    await db()
      .insert(payoutAccounts)
      .values({ userId: driver.user.id, provider: 'stripe', providerAccountId: accountId, status: 'pending' });
    stand.accounts.get(accountId)!.payouts_enabled = true;
    return { userId: driver.user.id, accountId };
  }
  const payoutRuns = (userId: string) => jobsOf(PAYOUT_RUN_JOB, sql`payload->>'userId' = ${userId}`);
  const statusOf = async (userId: string) =>
    (await db().select().from(payoutAccounts).where(eq(payoutAccounts.userId, userId)))[0]?.status;

  it.each([
    ['no signature', null],
    ['a signature made with another secret', 'other'],
    ['a signature header that is not one', 't=1,v1=abc'],
  ])('refuses %s: 400 invalid_signature, nothing stored', async (_, how) => {
    const payload = event('account.updated', { id: 'acct_x', object: 'account' });
    const signature = how === 'other' ? sign(payload, 'whsec_someone_else') : how;
    const res = await deliver(payload, signature);
    expect(res).toMatchObject({ status: 400, body: { code: 'invalid_signature', message: WEBHOOK_SIGNATURE_MESSAGE } });
    expect(await storedEvents(JSON.parse(payload).id)).toEqual([]);
  });

  it('refuses a body changed after signing, and a stale signature', async () => {
    const payload = event('account.updated', { id: 'acct_x', object: 'account' });
    const signature = sign(payload);
    expect((await deliver(payload.replace('acct_x', 'acct_y'), signature)).status).toBe(400);
    const old = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: WEBHOOK_SECRET,
      timestamp: Math.floor(Date.now() / 1000) - 3600,
    });
    expect((await deliver(payload, old)).body).toMatchObject({ code: 'invalid_signature' });
  });

  it('answers a signed body that is not JSON, or not an event, with 400 (never 500)', async () => {
    expect(await deliver('{"id": "evt_1", "type":')).toMatchObject({ status: 400, body: { code: 'malformed_json' } });
    expect(await deliver('{not json', 't=1,v1=0')).toMatchObject({ status: 400, body: { code: 'invalid_signature' } });
    expect(await deliver('[1, 2]')).toMatchObject({ status: 400, body: { code: 'validation_error' } });
    expect(await deliver('{"object": "event"}')).toMatchObject({ status: 400, body: { code: 'validation_error' } });
  });

  it('is in the OpenAPI document', async () => {
    const doc = await call<{ paths: Record<string, unknown> }>('GET', '/openapi.json');
    expect(doc.body.paths['/payments/webhooks/stripe']).toHaveProperty('post');
  });

  it('needs no session and passes the Origin check as Stripe calls it (no Origin)', async () => {
    const payload = event('customer.created', { id: 'cus_1', object: 'customer' });
    expect(await deliver(payload)).toMatchObject({ status: 200, body: { received: true } });
  });

  it('account.updated delivered 5 times: one event, one job, one activation and one payout run', async () => {
    const { userId, accountId } = await onboardedDriver();
    const payload = event('account.updated', { id: accountId, object: 'account', payouts_enabled: true });
    const { id } = JSON.parse(payload) as { id: string };
    for (let i = 0; i < 5; i++) expect((await deliver(payload)).status).toBe(200);
    expect(await storedEvents(id)).toHaveLength(1);
    expect(await jobsOf(PAYMENT_WEBHOOK_JOB, sql`dedupe_key = ${`webhook:${id}`}`)).toHaveLength(1);
    await ctx.app.jobs.runDue();
    expect(await statusOf(userId)).toBe('active');
    expect(await payoutRuns(userId)).toHaveLength(1);
    const [stored] = await storedEvents(id);
    expect(stored!.processedAt).toBeInstanceOf(Date);
    // Delivered again after it was applied: still nothing more.
    expect((await deliver(payload)).status).toBe(200);
    await ctx.app.jobs.runDue();
    expect(await payoutRuns(userId)).toHaveLength(1);
  });

  it('account.updated delivered 5 times at once: one activation and one payout run', async () => {
    const { userId, accountId } = await onboardedDriver();
    const payload = event('account.updated', { id: accountId, object: 'account', payouts_enabled: true });
    const answers = await Promise.all(Array.from({ length: 5 }, () => deliver(payload)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    await ctx.app.jobs.runDue();
    expect(await storedEvents(JSON.parse(payload).id)).toHaveLength(1);
    expect(await statusOf(userId)).toBe('active');
    expect(await payoutRuns(userId)).toHaveLength(1);
    // Another event saying the same (Stripe sends several as onboarding ends): no second activation or run.
    await deliver(event('account.updated', { id: accountId, object: 'account', payouts_enabled: true }));
    await ctx.app.jobs.runDue();
    expect(await payoutRuns(userId)).toHaveLength(1);
  });

  it("follows the account as Stripe has it now, not an old event's copy: payouts disabled sets it back to pending", async () => {
    const { userId, accountId } = await onboardedDriver();
    await deliver(event('account.updated', { id: accountId, object: 'account', payouts_enabled: true }));
    await ctx.app.jobs.runDue();
    expect(await statusOf(userId)).toBe('active');
    // Stripe disabled payouts (a verification is due); an older event saying 'enabled' arrives late.
    stand.accounts.get(accountId)!.payouts_enabled = false;
    await deliver(event('account.updated', { id: accountId, object: 'account', payouts_enabled: true }));
    await ctx.app.jobs.runDue();
    expect(await statusOf(userId)).toBe('pending');
    expect(await payoutRuns(userId)).toHaveLength(1);
  });

  describe('chargebacks: charge.dispute.created, .funds_withdrawn and .closed, each delivered twice', () => {
    const FEE = 1500;
    /** A dispute of the payment's charge as Stripe's events carry it, with the balance transactions so far. */
    const disputeOf = (
      chargeId: string,
      id: string,
      status: string,
      bts: { id: string; net: number; fee: number }[],
    ) => ({
      id,
      object: 'dispute',
      charge: chargeId,
      amount: TOTAL,
      currency: 'usd',
      status,
      reason: 'product_not_received',
      balance_transactions: bts.map((bt) => ({ ...bt, object: 'balance_transaction', amount: bt.net + bt.fee })),
    });
    const twice = async (payload: string) => {
      for (let i = 0; i < 2; i++) expect((await deliver(payload)).status).toBe(200);
      await ctx.app.jobs.runDue();
      // Delivered again once applied: nothing more.
      expect((await deliver(payload)).status).toBe(200);
      await ctx.app.jobs.runDue();
    };
    const withdrawal = () => ({ id: `txn_${++counter}`, net: -(TOTAL + FEE), fee: FEE });
    const chargebacksOf = (paymentId: string) =>
      db().select().from(chargebacks).where(eq(chargebacks.paymentId, paymentId));
    const losses = async () => -(await balances(db(), ['chargeback_losses']))[0]!;

    async function heldPayment() {
      const s = await paidOffer();
      expect((await choose(s.requester.token, s.bookingId, 'pm_card_visa')).status).toBe(200);
      const [p] = await paymentsOf(s.bookingId);
      return { ...s, payment: p!, chargeId: p!.providerChargeId! };
    }

    it('held money: on hold from created (complete and cancel refused), the loss once, then lost: the held money covers it', async () => {
      const s = await heldPayment();
      const before = await losses();
      const id = `dp_${++counter}`;
      await twice(event('charge.dispute.created', disputeOf(s.chargeId, id, 'needs_response', [])));
      expect(await chargebacksOf(s.payment.id)).toEqual([
        expect.objectContaining({ status: 'needs_response', amountCents: TOTAL, lostCents: 0, closedAt: null }),
      ]);
      const [cb] = await chargebacksOf(s.payment.id);
      expect((await db().select().from(bookings).where(eq(bookings.id, s.bookingId)))[0]!.onHoldChargebackId).toBe(
        cb!.id,
      );
      const page = await call<BookingDetail>('GET', `/bookings/${s.bookingId}`, { cookie: s.driver.token });
      expect(page.body.payment).toMatchObject({ state: 'held', on_hold: true, chargeback: true });
      expect(page.body.actions).toEqual([]);
      const cancel = await act(s.requester.token, s.bookingId, 'cancel', { reason: 'plans_changed' });
      expect(cancel).toMatchObject({ status: 409, body: { code: 'chargeback_on_hold' } });
      expect(await act(s.driver.token, s.bookingId, 'pickup')).toMatchObject({ status: 409 });

      const bt = withdrawal();
      await twice(event('charge.dispute.funds_withdrawn', disputeOf(s.chargeId, id, 'needs_response', [bt])));
      expect(await losses()).toBe(before + TOTAL + FEE);
      expect((await chargebacksOf(s.payment.id))[0]).toMatchObject({ lostCents: TOTAL + FEE, feeCents: FEE });
      expect(await stateOf(s.bookingId)).toEqual({ booking: 'confirmed', request: 'matched' });

      await twice(event('charge.dispute.closed', disputeOf(s.chargeId, id, 'lost', [bt])));
      // The held money covered the amount: the platform lost the bank's fee.
      expect(await losses()).toBe(before + FEE);
      expect((await chargebacksOf(s.payment.id))[0]).toMatchObject({ status: 'lost', lostCents: FEE });
      expect((await paymentsOf(s.bookingId))[0]).toMatchObject({ state: 'refunded', refundedCents: TOTAL });
      expect((await balances(db(), [{ held: s.payment.id }]))[0]).toBe(0);
      expect(await stateOf(s.bookingId)).toEqual({ booking: 'cancelled', request: 'open' });
      // No refund to the card: the bank already gave it back.
      expect(stand.sent('POST', '/v1/refunds').filter((r) => r.params.charge === s.chargeId)).toEqual([]);
      const after = await call<BookingDetail>('GET', `/bookings/${s.bookingId}`, { cookie: s.requester.token });
      expect(after.body.payment).toMatchObject({ state: 'refunded', chargeback: true, on_hold: false });
      expect(after.body.cancellation).toMatchObject({ by: null, reason: 'resolved_by_ruralroute' });
      expect(await ledgerTotal(db())).toBe(0);
    });

    it('won: the money given back reverses the loss, the hold is lifted and the delivery completes as usual', async () => {
      const s = await heldPayment();
      const before = await losses();
      const id = `dp_${++counter}`;
      const bt = withdrawal();
      // Out of order, as Stripe may deliver: the withdrawal first.
      await twice(event('charge.dispute.funds_withdrawn', disputeOf(s.chargeId, id, 'needs_response', [bt])));
      await twice(event('charge.dispute.created', disputeOf(s.chargeId, id, 'needs_response', [])));
      expect(await losses()).toBe(before + TOTAL + FEE);
      const back = { id: `txn_${++counter}`, net: TOTAL + FEE, fee: -FEE };
      await twice(event('charge.dispute.closed', disputeOf(s.chargeId, id, 'won', [bt, back])));
      // A late 'updated' saying it is under review does not reopen it.
      await twice(event('charge.dispute.updated', disputeOf(s.chargeId, id, 'under_review', [bt])));
      expect(await losses()).toBe(before);
      expect((await chargebacksOf(s.payment.id))[0]).toMatchObject({ status: 'won', lostCents: 0 });
      const page = await call<BookingDetail>('GET', `/bookings/${s.bookingId}`, { cookie: s.requester.token });
      expect(page.body.payment).toMatchObject({ state: 'held', on_hold: false, chargeback: false });
      expect((await act(s.driver.token, s.bookingId, 'pickup')).status).toBe(200);
      expect((await act(s.requester.token, s.bookingId, 'receive')).status).toBe(200);
      expect((await paymentsOf(s.bookingId))[0]).toMatchObject({ state: 'released' });
      expect(await ledgerTotal(db())).toBe(0);
    });

    it('released money: the loss is recorded, the driver keeps what was released, and admins see it', async () => {
      const s = await heldPayment();
      expect((await act(s.driver.token, s.bookingId, 'pickup')).status).toBe(200);
      expect((await act(s.requester.token, s.bookingId, 'receive')).status).toBe(200);
      const driverBefore = (await balances(db(), [{ driver: s.driver.user.id }]))[0]!;
      const before = await losses();
      const id = `dp_${++counter}`;
      const bt = withdrawal();
      await twice(event('charge.dispute.funds_withdrawn', disputeOf(s.chargeId, id, 'needs_response', [bt])));
      await twice(event('charge.dispute.closed', disputeOf(s.chargeId, id, 'lost', [bt])));
      expect(await losses()).toBe(before + TOTAL + FEE);
      expect((await balances(db(), [{ driver: s.driver.user.id }]))[0]).toBe(driverBefore);
      expect((await paymentsOf(s.bookingId))[0]).toMatchObject({ state: 'released' });
      const admin = await adminSession();
      const list = await call<{ items: AdminChargeback[] }>('GET', '/admin/payments/chargebacks', {
        cookie: admin.token,
      });
      expect(list.body.items.find((c) => c.payment_id === s.payment.id)).toMatchObject({
        status: 'lost',
        payment_state: 'released',
        lost_cents: TOTAL + FEE,
        driver_received_cents: COMPENSATION,
        driver_available_cents: driverBefore,
        on_hold: false,
        test_mode: false,
      });
      expect(await ledgerTotal(db())).toBe(0);
    });

    it('a dispute of a charge that is not ours, or not shaped as one, is stored and changes nothing', async () => {
      const before = await losses();
      await twice(event('charge.dispute.created', disputeOf('ch_not_ours', `dp_${++counter}`, 'needs_response', [])));
      await twice(event('charge.dispute.funds_withdrawn', { id: 'dp_bad', object: 'dispute', amount: 'many' }));
      expect(await losses()).toBe(before);
    });
  });

  it('stores an event of any other type, or about an account not ours, and marks it processed without effect', async () => {
    const other = event('charge.refunded', { id: 'ch_1', object: 'charge' });
    const stranger = event('account.updated', { id: 'acct_not_ours', object: 'account', payouts_enabled: true });
    expect((await deliver(other)).status).toBe(200);
    expect((await deliver(stranger)).status).toBe(200);
    await ctx.app.jobs.runDue();
    for (const payload of [other, stranger]) {
      const [stored] = await storedEvents(JSON.parse(payload).id);
      expect(stored).toMatchObject({ provider: 'stripe', payload: JSON.parse(payload) });
      expect(stored!.processedAt).toBeInstanceOf(Date);
    }
    const [job] = await db()
      .select({ status: jobs.status })
      .from(jobs)
      .where(and(eq(jobs.kind, PAYMENT_WEBHOOK_JOB), eq(jobs.dedupeKey, `webhook:${JSON.parse(stranger).id}`)));
    expect(job).toEqual({ status: 'sent' });
  });
});

describe('the Content-Security-Policy with Stripe', () => {
  it('lets the pay dialog load Stripe.js, frame its card element and 3-D Secure, and call its API', async () => {
    const csp = ((await call('GET', '/health')).headers.get('content-security-policy') ?? '').split(/;\s*/);
    expect(csp).toContain("script-src 'self' https://js.stripe.com");
    expect(csp).toContain("frame-src 'self' https://js.stripe.com https://hooks.stripe.com");
    expect(csp).toContain("connect-src 'self' https://api.stripe.com");
    expect(csp).toContain("frame-ancestors 'none'");
  });
});
