/**
 * Plans on Stripe Billing (PAYMENTS_PROVIDER=stripe, issue 38), through the real app, the real `stripe` SDK and the
 * real webhook route and job. Stripe itself is out of reach here (no internet): its API is a local HTTP server
 * standing in for it (test/stripe-stand-in.ts), which records what the SDK sent; a member paying on Checkout's page
 * is the stand-in's `completeCheckout`, and Stripe's events are delivered to the webhook route signed with the SDK's
 * own test-header helper, as Stripe would deliver them (several times, out of order).
 */
import { and, eq, sql } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAN_GRACE_DAYS, PLAN_TERMS } from '../../shared/plans';
import type { PlanCharge, PlanView } from '../../shared/plans-api';
import type { Page } from '../../shared/marketplace';
import { rowsOf } from '../db/result-rows';
import { notifications, planCharges, planSubscriptions } from '../db/schema';
import { balances } from '../payments/ledger';
import { setupTestApp } from '../test/harness';
import { TEST_CARD } from '../test/lifecycle';
import { createStripeStandIn, stripeEventBody } from '../test/stripe-stand-in';
import { planOf } from './plan-of';
import { STRIPE_PAGES_MESSAGE } from './service';

const WEBHOOK_SECRET = 'whsec_ruralroute_plans';
const PRICE_PLUS = 'price_plus_test';
const PRICE_COMMUNITY = 'price_community_test';
const PLUS = PLAN_TERMS.plus.priceCents;
const COMMUNITY = PLAN_TERMS.community.priceCents;
const DAY = 86_400_000;

const stand = createStripeStandIn();
stand.addPrice(PRICE_PLUS, PLUS, 'month');
stand.addPrice(PRICE_COMMUNITY, COMMUNITY, 'year');
const env: Record<string, string> = {
  AUTH_PER_IP_MAX: '100000',
  WRITE_LIMIT_PER_USER_MAX: '100000',
  JOBS_POLL_MS: '3600000',
  PLAN_SWEEP_SECONDS: '3600',
  PAYMENTS_PROVIDER: 'stripe',
  STRIPE_SECRET_KEY: 'sk_test_ruralroute',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_ruralroute',
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  STRIPE_PRICE_PLUS: PRICE_PLUS,
  STRIPE_PRICE_COMMUNITY: PRICE_COMMUNITY,
  APP_URL: 'http://ruralroute.test',
};
beforeAll(async () => {
  env.STRIPE_API_BASE = await stand.listen();
});
afterAll(() => stand.close());

let offsetMs = 0;
const clock = () => new Date(Date.now() + offsetMs);
const { ctx, call, signUpAndIn } = setupTestApp(env, { clock });
const db = () => ctx.database.db;

const view = async (token: string) => (await call<PlanView>('GET', '/plan', { cookie: token })).body;
const move = (token: string, path: string, body: unknown = {}) =>
  call<PlanView & { url?: string; code?: string; message?: string }>('POST', `/plan/${path}`, { cookie: token, body });

/** Stripe's event for `object`, delivered `times` times as Stripe delivers it (signed, no Origin, no session). */
async function deliver(type: string, object: unknown, times = 1): Promise<string> {
  const payload = stripeEventBody(type, object);
  for (let i = 0; i < times; i++) {
    const res = await call('POST', '/payments/webhooks/stripe', {
      raw: payload,
      origin: null,
      headers: { 'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }) },
    });
    expect(res.status).toBe(200);
  }
  await ctx.app.jobs.runDue();
  return (JSON.parse(payload) as { id: string }).id;
}

const chargesOf = (userId: string) =>
  db().select().from(planCharges).where(eq(planCharges.userId, userId)).orderBy(planCharges.createdAt);
const noticesOf = async (userId: string, kind: string) =>
  (await db().select().from(notifications).where(eq(notifications.userId, userId))).filter(
    (n) => n.type === 'plan' && (n.data as { kind?: string }).kind === kind,
  );
const invoiceKeys = async () =>
  rowsOf<{ key: string }>(
    await db().execute(
      sql`select idempotency_key as key from ledger_transactions where idempotency_key like 'plan_invoice:%'`,
    ),
  ).map((r) => r.key);

/** A member who opened Checkout for Plus and paid there with the test card; no event delivered yet. */
async function paidOnCheckout() {
  const me = await signUpAndIn();
  const res = await move(me.token, 'checkout', { plan: 'plus' });
  return { me, paid: stand.completeCheckout(res.body.url!.split('/').pop()!) };
}

/** A member who went through Checkout for `plan` and paid with `paymentMethod`; Stripe's events delivered. */
async function subscribed(plan: 'plus' | 'community' = 'plus', paymentMethod = 'pm_card_visa') {
  const me = await signUpAndIn(`Stripe ${plan} member`);
  const res = await move(me.token, 'checkout', { plan });
  expect(res.status).toBe(200);
  const sessionId = res.body.url!.split('/').pop()!;
  const paid = stand.completeCheckout(sessionId, paymentMethod);
  await deliver('checkout.session.completed', paid.session);
  await deliver('invoice.paid', paid.invoice);
  return { me, sessionId, sub: paid.subscription, invoice: paid.invoice };
}

describe('Plans on Stripe Billing: subscribing through Checkout', () => {
  it("says plans are billed by Stripe, not in test mode; the card form's route refuses with where to go", async () => {
    const me = await signUpAndIn();
    expect(await view(me.token)).toMatchObject({ plan: 'free', billing: 'stripe', available: true, test_mode: false });
    const res = await call('POST', '/plan', { cookie: me.token, body: { plan: 'plus', card: TEST_CARD } });
    expect(res).toMatchObject({ status: 409, body: { code: 'plan_state', message: STRIPE_PAGES_MESSAGE } });
    expect(await planOf(db(), me.user.id)).toBe('free');
  });

  it("'Upgrade' opens Checkout in subscription mode for the plan's price, the member named in it; a repeat gets the same page", async () => {
    const me = await signUpAndIn();
    const res = await move(me.token, 'checkout', { plan: 'community' });
    expect(res.status).toBe(200);
    expect(res.body.url).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
    const sent = stand.sent('POST', '/v1/checkout/sessions').filter((r) => r.params.client_reference_id === me.user.id);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.params).toMatchObject({
      mode: 'subscription',
      'line_items[0][price]': PRICE_COMMUNITY,
      'line_items[0][quantity]': '1',
      customer_email: me.email,
      'metadata[user_id]': me.user.id,
      'metadata[plan]': 'community',
      'subscription_data[metadata][user_id]': me.user.id,
      success_url: 'http://ruralroute.test/dashboard/settings/plan?checkout=done',
      cancel_url: 'http://ruralroute.test/dashboard/settings/plan',
    });
    expect(sent[0]!.idempotencyKey).toMatch(new RegExp(`^plan_checkout:${me.user.id}:community:\\d+$`));
    // A second tap: Stripe answers the same key with the same page.
    expect((await move(me.token, 'checkout', { plan: 'community' })).body.url).toBe(res.body.url);
    // Nothing is recorded before Stripe says it was paid.
    expect(await planOf(db(), me.user.id)).toBe('free');
  });

  it.each([
    ['an unknown plan', { plan: 'gold' }],
    ['no plan', {}],
    ['Free', { plan: 'free' }],
  ])('refuses %s with 400 and asks nothing of Stripe', async (_, body) => {
    const me = await signUpAndIn();
    const before = stand.requests.length;
    const res = await move(me.token, 'checkout', body);
    expect(res.status).toBe(400);
    expect(stand.requests.length).toBe(before);
  });

  it('signed out: 401', async () => {
    expect((await call('POST', '/plan/checkout', { body: { plan: 'plus' } })).status).toBe(401);
    expect((await call('POST', '/plan/portal', { body: {} })).status).toBe(401);
  });

  it('checkout.session.completed and invoice.paid, each delivered 3 times: the plan on once, one charge, one ledger move, one receipt', async () => {
    const { me, paid } = await paidOnCheckout();
    const revenue = (await balances(db(), ['plan_revenue']))[0]!;
    await deliver('checkout.session.completed', paid.session, 3);
    await deliver('invoice.paid', paid.invoice, 3);

    expect(await view(me.token)).toMatchObject({
      plan: 'plus',
      status: 'active',
      billing: 'stripe',
      cancel_at_period_end: false,
      card: { brand: 'visa', last4: '4242' },
      current_period_end: new Date(paid.subscription.periodEnd * 1000).toISOString(),
    });
    expect(await planOf(db(), me.user.id)).toBe('plus');
    const charges = await chargesOf(me.user.id);
    expect(charges).toHaveLength(1);
    expect(charges[0]).toMatchObject({
      kind: 'subscribe',
      state: 'paid',
      plan: 'plus',
      amountCents: PLUS,
      cardCents: PLUS,
      prorationCents: 0,
      provider: 'stripe',
      providerChargeId: paid.invoice.id,
      cardLast4: '4242',
    });
    expect((await balances(db(), ['plan_revenue']))[0]).toBe(revenue + PLUS);
    expect(await invoiceKeys()).toContain(`plan_invoice:${paid.invoice.id as string}`);
    expect(await noticesOf(me.user.id, 'subscribed')).toHaveLength(1);
    // On the 'Paid' tab with its receipt.
    const list = await call<Page<PlanCharge>>('GET', '/plan/charges', { cookie: me.token });
    expect(list.body.items).toEqual([
      expect.objectContaining({ kind: 'subscribe', amount_cents: PLUS, card: 'Visa ending in 4242', test_mode: false }),
    ]);
  });

  it('invoice.paid delivered 5 times at once, applied by two workers at once: one charge, one ledger move, one receipt', async () => {
    const { me, paid } = await paidOnCheckout();
    await deliver('checkout.session.completed', paid.session);
    const payload = stripeEventBody('invoice.paid', paid.invoice);
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        call('POST', '/payments/webhooks/stripe', {
          raw: payload,
          origin: null,
          headers: { 'stripe-signature': signature },
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    await Promise.all([ctx.app.jobs.runDue(), ctx.app.jobs.runDue()]);
    expect(await chargesOf(me.user.id)).toHaveLength(1);
    expect((await invoiceKeys()).filter((k) => k === `plan_invoice:${paid.invoice.id as string}`)).toHaveLength(1);
    expect(await noticesOf(me.user.id, 'subscribed')).toHaveLength(1);
  });

  it('Stripe failing while an event is applied: nothing half-written, the job tries again later and applies it once', async () => {
    const { me, paid } = await paidOnCheckout();
    await deliver('checkout.session.completed', paid.session);
    const revenue = (await balances(db(), ['plan_revenue']))[0]!;
    // Down for every try of the SDK (however many it makes): the job fails before its transaction.
    const invoicePath = `/v1/invoices/${paid.invoice.id as string}`;
    const triedBefore = stand.sent('GET', invoicePath).length;
    stand.state.outage = { path: invoicePath, times: Infinity };
    await deliver('invoice.paid', paid.invoice);
    expect(stand.sent('GET', invoicePath).length).toBeGreaterThan(triedBefore);
    expect(await chargesOf(me.user.id)).toEqual([]);
    expect((await balances(db(), ['plan_revenue']))[0]).toBe(revenue);
    const [job] = rowsOf<{ id: string; last_error: string | null }>(
      await db().execute(sql`select id::text, last_error from jobs where kind = 'payment_webhook' and status = 'queued'
        and last_error is not null order by id desc limit 1`),
    );
    expect(job?.last_error).toMatch(/trouble/);
    // Stripe is back; the retry's time comes.
    stand.state.outage = null;
    await db().execute(sql`update jobs set run_at = now() where id = ${job!.id}::bigint`);
    await ctx.app.jobs.runDue();
    expect((await chargesOf(me.user.id)).map((c) => [c.kind, c.cardCents])).toEqual([['subscribe', PLUS]]);
    expect((await balances(db(), ['plan_revenue']))[0]).toBe(revenue + PLUS);
    expect(await noticesOf(me.user.id, 'subscribed')).toHaveLength(1);
  });

  it('the events in the other order (invoice.paid first) give the same record', async () => {
    const { me, paid } = await paidOnCheckout();
    await deliver('invoice.paid', paid.invoice);
    await deliver('checkout.session.completed', paid.session);
    expect(await planOf(db(), me.user.id)).toBe('plus');
    const charges = await chargesOf(me.user.id);
    expect(charges).toHaveLength(1);
    // The receipt names the card Stripe charged, though our record of the subscription came after.
    expect(charges[0]).toMatchObject({ cardBrand: 'visa', cardLast4: '4242' });
  });

  it('a member with a plan cannot open Checkout again (409), and a second paid subscription is cancelled at Stripe', async () => {
    const { me, sub } = await subscribed('plus');
    expect((await move(me.token, 'checkout', { plan: 'community' })).body).toMatchObject({ code: 'plan_state' });
    // A Checkout page opened before, in another tab, paid later.
    const stale = stand.completeCheckout(
      (
        await call<{ url: string }>('POST', '/plan/checkout', {
          cookie: (await signUpAndIn()).token,
          body: { plan: 'plus' },
        })
      ).body.url
        .split('/')
        .pop()!,
    );
    stale.subscription.metadata = { user_id: me.user.id, plan: 'community' };
    await deliver('customer.subscription.updated', { id: stale.subscription.id, object: 'subscription' });
    expect(stand.subscriptions.get(stale.subscription.id)!.status).toBe('canceled');
    expect(await view(me.token)).toMatchObject({ plan: 'plus' });
    expect(
      (await db().select().from(planSubscriptions).where(eq(planSubscriptions.userId, me.user.id)))[0],
    ).toMatchObject({
      providerSubscriptionId: sub.id,
    });
  });

  it("events about no member of ours, or someone else's objects, change nothing", async () => {
    const ids = [
      await deliver('customer.subscription.updated', { id: 'sub_unknown', object: 'subscription' }),
      await deliver('checkout.session.completed', { id: 'cs_x', object: 'checkout.session', mode: 'payment' }),
      await deliver('invoice.paid', { id: 'in_unknown', object: 'invoice' }),
    ];
    // Each applied (processed) at its first run, without an error.
    const runs = rowsOf<{ status: string; last_error: string | null }>(
      await db().execute(
        sql`select status, last_error from jobs where kind = 'payment_webhook'
            and dedupe_key in (${sql.join(
              ids.map((id) => sql`${`webhook:${id}`}`),
              sql`, `,
            )})`,
      ),
    );
    expect(runs).toEqual(ids.map(() => ({ status: 'sent', last_error: null })));
  });
});

describe('Plans on Stripe Billing: switching, cancelling, the portal', () => {
  it('Plus to Community at once: the item moved to the price, prorated and invoiced now; the invoice is the switch charge', async () => {
    const { me, sub } = await subscribed('plus');
    const res = await move(me.token, 'switch', { plan: 'community' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ plan: 'community', status: 'active' });
    expect(await planOf(db(), me.user.id)).toBe('community');
    const sent = stand.sent('POST', `/v1/subscriptions/${sub.id}`);
    expect(sent.at(-1)!.params).toMatchObject({
      'items[0][id]': sub.itemId,
      'items[0][price]': PRICE_COMMUNITY,
      proration_behavior: 'always_invoice',
      payment_behavior: 'error_if_incomplete',
    });
    expect(sent.at(-1)!.idempotencyKey).toMatch(new RegExp(`^plan_switch:${sub.id}:community:`));
    const invoice = [...stand.invoices.values()].find(
      (i) =>
        i.billing_reason === 'subscription_update' &&
        (i.parent as { subscription_details: { subscription: string } }).subscription_details.subscription === sub.id,
    )!;
    await deliver('invoice.paid', invoice, 2);
    const charges = await chargesOf(me.user.id);
    expect(charges.map((c) => c.kind)).toEqual(['subscribe', 'switch']);
    const unused = charges[1]!.prorationCents;
    expect(unused).toBeGreaterThan(PLUS - 5);
    expect(charges[1]).toMatchObject({ plan: 'community', amountCents: COMMUNITY, cardCents: COMMUNITY - unused });
    expect(await noticesOf(me.user.id, 'switched')).toHaveLength(1);
  });

  it('a declined card on a switch leaves the plan as it was', async () => {
    const { me, sub } = await subscribed('plus');
    stand.subscriptions.get(sub.id)!.paymentMethod = 'pm_card_chargeDeclined';
    const res = await move(me.token, 'switch', { plan: 'community' });
    expect(res).toMatchObject({ status: 402, body: { code: 'card_declined' } });
    expect(await view(me.token)).toMatchObject({ plan: 'plus' });
    expect(stand.subscriptions.get(sub.id)!.price).toBe(PRICE_PLUS);
  });

  it("'Cancel plan' sets cancel_at_period_end at Stripe; 'Keep my plan' clears it; the end comes with customer.subscription.deleted", async () => {
    const { me, sub } = await subscribed('plus');
    const cancelled = await move(me.token, 'cancel');
    expect(cancelled.body).toMatchObject({ plan: 'plus', cancel_at_period_end: true });
    expect(stand.subscriptions.get(sub.id)!.cancelAtPeriodEnd).toBe(true);
    const kept = await move(me.token, 'resume');
    expect(kept.body).toMatchObject({ plan: 'plus', cancel_at_period_end: false });
    expect(stand.subscriptions.get(sub.id)!.cancelAtPeriodEnd).toBe(false);
    // Cancelled in Stripe's portal: Stripe ends it and says so.
    stand.subscriptions.get(sub.id)!.status = 'canceled';
    await deliver('customer.subscription.deleted', { id: sub.id, object: 'subscription' }, 2);
    expect(await view(me.token)).toMatchObject({ plan: 'free', status: null });
    expect(await planOf(db(), me.user.id)).toBe('free');
    expect(await noticesOf(me.user.id, 'ended')).toHaveLength(1);
    // An older event arriving late does not bring the plan back: the subscription is asked of Stripe as it is now.
    await deliver('customer.subscription.updated', { id: sub.id, object: 'subscription', status: 'active' });
    expect(await planOf(db(), me.user.id)).toBe('free');
  });

  it("'Manage billing' opens Stripe's customer portal for the member's customer; a Free member has none (409)", async () => {
    const { me, sub } = await subscribed('plus');
    const res = await move(me.token, 'portal');
    expect(res.body.url).toMatch(/^https:\/\/billing\.stripe\.com\/p\/session\//);
    expect(stand.sent('POST', '/v1/billing_portal/sessions').at(-1)!.params).toMatchObject({
      customer: sub.customer,
      return_url: 'http://ruralroute.test/dashboard/settings/plan',
    });
    const free = await signUpAndIn();
    expect((await move(free.token, 'portal')).body).toMatchObject({ code: 'plan_state' });
  });
});

describe('Plans on Stripe Billing: renewals and failed payments', () => {
  it('a month passes: Stripe renews, invoice.paid records the renewal and the next period', async () => {
    const { me, sub } = await subscribed('plus');
    const invoice = stand.renew(sub.id);
    await deliver('invoice.paid', invoice);
    await deliver('customer.subscription.updated', { id: sub.id, object: 'subscription' });
    const charges = await chargesOf(me.user.id);
    expect(charges.map((c) => [c.kind, c.cardCents])).toEqual([
      ['subscribe', PLUS],
      ['renewal', PLUS],
    ]);
    expect((await view(me.token)).current_period_end).toBe(new Date(sub.periodEnd * 1000).toISOString());
    expect(await noticesOf(me.user.id, 'renewed')).toHaveLength(1);
  });

  it('a declined renewal: past due with 7 days of grace and one notice; after the grace the sweep cancels at Stripe and the member is Free', async () => {
    const { me, sub } = await subscribed('plus');
    stand.subscriptions.get(sub.id)!.paymentMethod = 'pm_card_chargeDeclined';
    const invoice = stand.renew(sub.id);
    await deliver('invoice.payment_failed', invoice, 2);
    await deliver('customer.subscription.updated', { id: sub.id, object: 'subscription' });
    const failed = await view(me.token);
    expect(failed).toMatchObject({ plan: 'plus', status: 'past_due' });
    const grace = Date.parse(failed.grace_until!) - clock().getTime();
    expect(grace).toBeGreaterThan(PLAN_GRACE_DAYS * DAY - 60_000);
    expect(grace).toBeLessThanOrEqual(PLAN_GRACE_DAYS * DAY);
    expect(await noticesOf(me.user.id, 'payment_failed')).toHaveLength(1);
    expect(await chargesOf(me.user.id)).toHaveLength(1);

    // Six days on: still Plus. Eight: the sweep cancels it at Stripe (once, by its key) and the member is Free.
    offsetMs += 6 * DAY;
    await ctx.app.plans.sweep();
    expect(await planOf(db(), me.user.id)).toBe('plus');
    offsetMs += 2 * DAY;
    await ctx.app.plans.sweep();
    offsetMs = 0;
    expect(stand.subscriptions.get(sub.id)!.status).toBe('canceled');
    expect(stand.sent('DELETE', `/v1/subscriptions/${sub.id}`)[0]!.idempotencyKey).toBe(`plan_end:${sub.id}`);
    expect(await planOf(db(), me.user.id)).toBe('free');
    expect(await noticesOf(me.user.id, 'ended')).toHaveLength(1);
    // Stripe's own event about it changes nothing more.
    await deliver('customer.subscription.deleted', { id: sub.id, object: 'subscription' });
    expect(await noticesOf(me.user.id, 'ended')).toHaveLength(1);
  });

  it('a card updated in the portal pays the open invoice: active again, the renewal recorded', async () => {
    const { me, sub } = await subscribed('plus');
    const held = stand.subscriptions.get(sub.id)!;
    held.paymentMethod = 'pm_card_chargeDeclined';
    await deliver('invoice.payment_failed', stand.renew(sub.id));
    expect((await view(me.token)).status).toBe('past_due');
    // The member changes the card in Stripe's portal; Stripe retries and the renewal is paid.
    held.paymentMethod = 'pm_card_mastercard';
    const paid = stand.renew(sub.id);
    await deliver('invoice.paid', paid);
    expect(await view(me.token)).toMatchObject({
      plan: 'plus',
      status: 'active',
      grace_until: null,
      card: { brand: 'mastercard', last4: '4444' },
    });
    const [renewal] = (await chargesOf(me.user.id)).filter((c) => c.kind === 'renewal');
    expect(renewal).toMatchObject({ cardCents: PLUS, state: 'paid' });
    expect(
      await db()
        .select()
        .from(planCharges)
        .where(and(eq(planCharges.userId, me.user.id), eq(planCharges.state, 'failed'))),
    ).toEqual([]);
  });
});
