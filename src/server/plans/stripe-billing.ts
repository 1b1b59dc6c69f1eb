import { and, eq, lte } from 'drizzle-orm';
import type Stripe from 'stripe';
import { z } from 'zod';
import { PAID_PLANS, PLAN_GRACE_DAYS, PLANS_UNAVAILABLE_MESSAGE, planName, type PaidPlan } from '../../shared/plans';
import { DomainError } from '../core/domain-error';
import type { Db } from '../db/client';
import { planCharges, planSubscriptions, profiles, users } from '../db/schema';
import { post } from '../payments';
import {
  chargeNotice,
  endPlans,
  notifyPlan,
  paymentFailedNotice,
  running,
  subscriptionOf,
  type Subscription,
} from './moves';

/**
 * Plans on Stripe Billing (PAYMENTS_PROVIDER=stripe, docs/plans.md 'Stripe'): Stripe is the clock and charges the
 * card; RuralRoute keeps the same record as with the embedded billing (plan_subscriptions, plan_charges, the
 * ledger, profiles.plan) from Stripe's webhooks, so every benefit reads the plan the same way.
 *
 *   subscribe  Checkout in subscription mode (STRIPE_PRICE_PLUS / STRIPE_PRICE_COMMUNITY), the member's id as its
 *              client_reference_id and in the subscription's metadata; `checkout.session.completed` records it.
 *   card       Stripe's customer portal (cards and invoices).
 *   switch     the subscription's item moved to the other price, prorated and invoiced at once (a declined card
 *              changes nothing); cancel and 'Keep my plan' set cancel_at_period_end.
 *   events     checkout.session.completed, invoice.paid (the charge, its ledger transaction and receipt),
 *              invoice.payment_failed (past due: the banner and the e-mail, PLAN_GRACE_DAYS of grace),
 *              customer.subscription.updated and .deleted: each stored once by its id and applied by the webhook
 *              job. The subscription is asked of Stripe as it is now (events come out of order and are retried for
 *              days), so an old event never undoes a newer state.
 *   grace      the plans sweep cancels at Stripe a subscription still past due when its grace ends.
 */

const DAY_MS = 86_400_000;

export interface StripeBillingSettings {
  /** Stripe's recurring prices of the two plans, or null when not configured (plans cannot be bought then). */
  prices: Record<PaidPlan, string> | null;
  /** Where Checkout and the portal return to. */
  appUrl: string;
}

/** What a stored event's job does in its transaction (the Stripe calls it needs are made before). */
export type PlanEventApply = (tx: Db) => Promise<void>;

const PLAN_EVENTS = new Set([
  'checkout.session.completed',
  'invoice.paid',
  'invoice.payment_failed',
  'customer.subscription.updated',
  'customer.subscription.deleted',
]);

const objectOf = <S extends z.ZodType>(schema: S) => z.object({ data: z.object({ object: schema }) });
const checkoutEvent = objectOf(
  z.object({
    mode: z.string(),
    client_reference_id: z.string().uuid().nullish(),
    subscription: z.union([z.string(), z.object({ id: z.string() })]).nullish(),
  }),
);
const subscriptionEvent = objectOf(z.object({ id: z.string().min(1) }));
const invoiceEvent = objectOf(z.object({ id: z.string().min(1) }));

const idOf = (value: string | { id: string } | null | undefined) => (typeof value === 'string' ? value : value?.id);
const fromUnix = (seconds: number) => new Date(seconds * 1000);

/** Stripe's subscription states as ours; null: not paid yet (incomplete), nothing to record. */
function statusOf(status: Stripe.Subscription.Status): Subscription['status'] | null {
  if (status === 'active' || status === 'trialing') return 'active';
  if (status === 'past_due' || status === 'unpaid') return 'past_due';
  if (status === 'incomplete') return null;
  return 'canceled';
}

/** The card on a subscription's default payment method (expanded), if Stripe says. */
function cardOf(method: Stripe.Subscription['default_payment_method']) {
  return typeof method === 'object' && method?.card ? { brand: method.card.brand, last4: method.card.last4 } : null;
}

const CHARGE_KINDS: Record<string, (typeof planCharges.$inferInsert)['kind']> = {
  subscription_create: 'subscribe',
  subscription_cycle: 'renewal',
  subscription_update: 'switch',
};

export function createStripeBilling(db: Db, stripe: Stripe, settings: StripeBillingSettings, clock: () => Date) {
  const available = settings.prices !== null;
  const pricesOrRefuse = () => {
    if (!settings.prices) throw new DomainError('plans_unavailable', PLANS_UNAVAILABLE_MESSAGE);
    return settings.prices;
  };
  const planOfPrice = (priceId: string | undefined): PaidPlan | null =>
    PAID_PLANS.find((p) => settings.prices?.[p] === priceId) ?? null;
  const planState = (message: string) => new DomainError('plan_state', message);
  const planPage = `${settings.appUrl}/dashboard/settings/plan`;

  const retrieve = (id: string) => stripe.subscriptions.retrieve(id, { expand: ['default_payment_method'] });

  /** The member's Stripe subscription, running: the one a switch, cancel or resume changes. */
  async function runningOnStripe(userId: string): Promise<Subscription & { providerSubscriptionId: string }> {
    const sub = await subscriptionOf(db, userId);
    if (!running(sub)) throw planState('You are on the Free plan. Choose a plan first.');
    if (!sub.providerSubscriptionId) throw planState('Your plan is not billed by Stripe.');
    return sub as Subscription & { providerSubscriptionId: string };
  }

  /**
   * Checkout's page for a new plan. A member who had a plan before keeps their Stripe customer (cards, invoices).
   * The key holds for ten minutes: a second tap, or a second tab, gets the same page, not a second subscription.
   */
  async function checkout(userId: string, plan: PaidPlan): Promise<{ url: string }> {
    const prices = pricesOrRefuse();
    const before = await subscriptionOf(db, userId);
    // A member who had a plan on Stripe before: their customer (cards, invoices) is kept.
    const customer = before?.providerCustomerId;
    if (running(before))
      throw planState(
        before.plan === plan
          ? `You are on ${planName(plan)} already.`
          : `You are on ${planName(before.plan as PaidPlan)}. Switch plans instead.`,
      );
    const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
    const metadata = { user_id: userId, plan };
    const session = await stripe.checkout.sessions.create(
      {
        mode: 'subscription',
        line_items: [{ price: prices[plan], quantity: 1 }],
        ...(customer ? { customer } : { customer_email: user?.email }),
        client_reference_id: userId,
        metadata,
        subscription_data: { metadata },
        success_url: `${planPage}?checkout=done`,
        cancel_url: planPage,
      },
      { idempotencyKey: `plan_checkout:${userId}:${plan}:${Math.floor(clock().getTime() / 600_000)}` },
    );
    if (!session.url) throw new Error('Stripe Checkout answered without a page');
    return { url: session.url };
  }

  /** Stripe's customer portal: the card renewals charge, and every invoice. */
  async function portal(userId: string): Promise<{ url: string }> {
    pricesOrRefuse();
    const sub = await subscriptionOf(db, userId);
    if (!sub?.providerCustomerId) throw planState('You are on the Free plan. Choose a plan first.');
    const session = await stripe.billingPortal.sessions.create({
      customer: sub.providerCustomerId,
      return_url: planPage,
    });
    return { url: session.url };
  }

  /** Records a Stripe subscription as it is now (the answer of a move, or an event's), in one transaction. */
  const record = (userId: string, s: Stripe.Subscription) => db.transaction((tx) => sync(tx, userId, s));

  /** Plus to Community or back, at once: Stripe prorates the unused time and charges the rest now. */
  async function switchPlan(userId: string, plan: PaidPlan): Promise<void> {
    const prices = pricesOrRefuse();
    const sub = await runningOnStripe(userId);
    if (sub.plan === plan) throw planState(`You are on ${planName(plan)} already.`);
    if (sub.status === 'past_due')
      throw planState('Your last payment failed. Update your card before switching plans.');
    const current = await retrieve(sub.providerSubscriptionId);
    const item = current.items.data[0];
    if (!item) throw planState('Your plan changed meanwhile. Check it and try again.');
    try {
      const moved = await stripe.subscriptions.update(
        sub.providerSubscriptionId,
        {
          items: [{ id: item.id, price: prices[plan] }],
          proration_behavior: 'always_invoice',
          // A declined card leaves the plan as it was (Stripe's 402), rather than switched and unpaid.
          payment_behavior: 'error_if_incomplete',
          cancel_at_period_end: false,
          metadata: { user_id: userId, plan },
          expand: ['default_payment_method'],
        },
        { idempotencyKey: `plan_switch:${sub.providerSubscriptionId}:${plan}:${item.current_period_start}` },
      );
      await record(userId, moved);
    } catch (err) {
      if ((err as { type?: string }).type === 'StripeCardError')
        throw new DomainError('card_declined', 'Your card was declined. Update your card and try again.');
      throw err;
    }
  }

  /** 'Cancel plan': no renewal, to the end of the period; a plan past due ends now (Stripe cancels it). */
  async function cancel(userId: string): Promise<void> {
    const sub = await runningOnStripe(userId);
    const moved =
      sub.status === 'past_due'
        ? await stripe.subscriptions.cancel(sub.providerSubscriptionId, { expand: ['default_payment_method'] })
        : await stripe.subscriptions.update(sub.providerSubscriptionId, {
            cancel_at_period_end: true,
            expand: ['default_payment_method'],
          });
    await record(userId, moved);
  }

  /** 'Keep my plan'. */
  async function resume(userId: string): Promise<void> {
    const sub = await runningOnStripe(userId);
    if (!sub.cancelAtPeriodEnd) throw planState('Your plan is not cancelled.');
    const moved = await stripe.subscriptions.update(sub.providerSubscriptionId, {
      cancel_at_period_end: false,
      expand: ['default_payment_method'],
    });
    await record(userId, moved);
  }

  /**
   * A Stripe subscription as our record, under the member's row lock: the plan (by its price), the state, the
   * period, the card, and profiles.plan; the notices of a change of state (past due: the failed payment's; canceled:
   * the end). A second subscription of a member who has one running (two Checkout pages paid) is not recorded.
   */
  async function sync(tx: Db, userId: string, s: Stripe.Subscription): Promise<'recorded' | 'ignored' | 'duplicate'> {
    const item = s.items.data[0];
    const plan = planOfPrice(item?.price.id);
    const status = statusOf(s.status);
    if (!item || !plan || !status) return 'ignored';
    const at = clock();
    const before = await subscriptionOf(tx, userId, true);
    const mine = before?.providerSubscriptionId === s.id;
    if (running(before) && !mine) return status === 'canceled' ? 'ignored' : 'duplicate';
    if (status === 'canceled') {
      if (running(before)) await endPlans(tx, [before], at);
      return 'recorded';
    }
    const card = cardOf(s.default_payment_method);
    const values = {
      plan,
      status,
      periodPriceCents: item.price.unit_amount ?? 0,
      currentPeriodStart: fromUnix(item.current_period_start),
      currentPeriodEnd: fromUnix(item.current_period_end),
      cancelAtPeriodEnd: s.cancel_at_period_end,
      graceUntil:
        status === 'past_due'
          ? before?.status === 'past_due' && mine && before.graceUntil
            ? before.graceUntil
            : new Date(at.getTime() + PLAN_GRACE_DAYS * DAY_MS)
          : null,
      provider: 'stripe',
      paymentMethodId: null,
      ...(card ? { cardBrand: card.brand, cardLast4: card.last4 } : {}),
      providerCustomerId: idOf(s.customer) ?? null,
      providerSubscriptionId: s.id,
      updatedAt: at,
    };
    await tx
      .insert(planSubscriptions)
      .values({ userId, ...values })
      .onConflictDoUpdate({ target: planSubscriptions.userId, set: values });
    await tx.update(profiles).set({ plan }).where(eq(profiles.userId, userId));
    if (status === 'past_due' && !(mine && before?.status === 'past_due'))
      await notifyPlan(tx, [paymentFailedNotice({ userId, plan }, at)]);
    return 'recorded';
  }

  /** The member a subscription is for: our record of it, else its metadata (a member who still exists). */
  async function memberOf(s: Stripe.Subscription): Promise<string | null> {
    const [known] = await db
      .select({ userId: planSubscriptions.userId })
      .from(planSubscriptions)
      .where(eq(planSubscriptions.providerSubscriptionId, s.id));
    if (known) return known.userId;
    const claimed = z.string().uuid().safeParse(s.metadata?.user_id);
    if (!claimed.success) return null;
    const [user] = await db.select({ id: users.id }).from(users).where(eq(users.id, claimed.data));
    return user?.id ?? null;
  }

  /** A second subscription (two Checkout pages both paid): cancelled at Stripe at once, its unused time credited. */
  async function dropDuplicate(s: Stripe.Subscription) {
    await stripe.subscriptions.cancel(s.id, { prorate: true, invoice_now: true });
  }

  /** Applies a subscription as Stripe has it now, for the member it is for; `also` runs first in the same transaction. */
  async function applySubscription(
    id: string,
    userHint: string | null,
    also?: (tx: Db, userId: string, subscription: Stripe.Subscription) => Promise<void>,
  ) {
    const s = await retrieve(id);
    const userId = userHint ?? (await memberOf(s));
    if (!userId) return undefined;
    let duplicate = false;
    const apply: PlanEventApply = async (tx) => {
      if (also) await also(tx, userId, s);
      duplicate = (await sync(tx, userId, s)) === 'duplicate';
    };
    return { apply, after: async () => (duplicate ? dropDuplicate(s) : undefined) };
  }

  /**
   * invoice.paid: the charge as the 'Paid' tab shows it (what the plan cost, the unused time Stripe credited, the
   * customer balance it used, what the card paid), its ledger transaction (the card's money in as plan revenue,
   * under the invoice's key: once) and the receipt's notice, with the subscription recorded as it is now.
   */
  async function invoicePaid(invoiceId: string) {
    const invoice = await stripe.invoices.retrieve(invoiceId);
    const subId = idOf(invoice.parent?.subscription_details?.subscription);
    if (!subId) return undefined;
    const lines = invoice.lines.data;
    const paidLine = lines.find((l) => l.amount > 0);
    const proration = lines.reduce((sum, l) => sum + (l.amount < 0 ? -l.amount : 0), 0);
    const card = invoice.amount_paid;
    const credit = Math.max(0, invoice.total - invoice.amount_paid);
    const kind = CHARGE_KINDS[invoice.billing_reason ?? ''] ?? 'renewal';
    return applySubscription(subId, null, async (tx, userId, sub) => {
      // The card and plan as Stripe has them (this event may come before checkout.session.completed is applied).
      const paidWith = cardOf(sub.default_payment_method);
      const plan =
        planOfPrice(idOf(paidLine?.pricing?.price_details?.price)) ?? planOfPrice(sub.items.data[0]?.price.id);
      if (!plan) return;
      const [done] = await tx
        .select({ id: planCharges.id })
        .from(planCharges)
        .where(and(eq(planCharges.provider, 'stripe'), eq(planCharges.providerChargeId, invoice.id)));
      if (done) return;
      const at = clock();
      const period = paidLine?.period;
      const [charge] = await tx
        .insert(planCharges)
        .values({
          userId,
          plan,
          kind,
          state: 'paid',
          amountCents: card + credit + proration,
          prorationCents: proration,
          creditCents: credit,
          cardCents: card,
          periodStart: period ? fromUnix(period.start) : at,
          periodEnd: period ? fromUnix(period.end) : at,
          provider: 'stripe',
          providerChargeId: invoice.id,
          cardBrand: paidWith?.brand ?? null,
          cardLast4: paidWith?.last4 ?? null,
          createdAt: at,
          paidAt: at,
        })
        .returning();
      if (card > 0)
        await post(tx, {
          kind: 'plan_charge',
          key: `plan_invoice:${invoice.id}`,
          lines: [
            { account: 'outside', amount: -card },
            { account: 'plan_revenue', amount: card },
          ],
        });
      const noticeKind = kind === 'subscribe' ? 'subscribed' : kind === 'switch' ? 'switched' : 'renewed';
      await notifyPlan(tx, [chargeNotice(charge!, noticeKind, at, false)]);
    });
  }

  /**
   * What one stored event does: the Stripe calls it needs (made now, outside the transaction), then `apply` in the
   * transaction that marks the event processed, then `after` (a duplicate subscription cancelled at Stripe).
   * Undefined: not a plan event, or not one of ours.
   */
  async function prepareEvent(type: string, payload: unknown) {
    if (!PLAN_EVENTS.has(type) || !available) return undefined;
    return prepare(type, payload).catch((err: unknown) => {
      // An object Stripe does not know (another account's, or one deleted since): nothing of ours to change.
      if ((err as { statusCode?: number }).statusCode === 404) return undefined;
      throw err;
    });
  }

  async function prepare(type: string, payload: unknown) {
    if (type === 'checkout.session.completed') {
      const session = checkoutEvent.safeParse(payload);
      if (!session.success || session.data.data.object.mode !== 'subscription') return undefined;
      const { client_reference_id: userId, subscription } = session.data.data.object;
      const subId = idOf(subscription);
      if (!userId || !subId) return undefined;
      const [user] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId));
      return user ? applySubscription(subId, user.id) : undefined;
    }
    if (type === 'invoice.paid') {
      const invoice = invoiceEvent.safeParse(payload);
      return invoice.success ? invoicePaid(invoice.data.data.object.id) : undefined;
    }
    if (type === 'invoice.payment_failed') {
      const invoice = invoiceEvent.safeParse(payload);
      if (!invoice.success) return undefined;
      const found = await stripe.invoices.retrieve(invoice.data.data.object.id);
      const subId = idOf(found.parent?.subscription_details?.subscription);
      return subId ? applySubscription(subId, null) : undefined;
    }
    const sub = subscriptionEvent.safeParse(payload);
    return sub.success ? applySubscription(sub.data.data.object.id, null) : undefined;
  }

  /** The plans sweep's part: plans on Stripe still past due when their grace ends are cancelled there, then Free. */
  async function endAfterGrace(at: Date): Promise<number> {
    const due = await db
      .select()
      .from(planSubscriptions)
      .where(
        and(
          eq(planSubscriptions.provider, 'stripe'),
          eq(planSubscriptions.status, 'past_due'),
          lte(planSubscriptions.graceUntil, at),
        ),
      );
    let ended = 0;
    for (const sub of due) {
      if (!sub.providerSubscriptionId) continue;
      const s = await stripe.subscriptions.cancel(
        sub.providerSubscriptionId,
        { expand: ['default_payment_method'] },
        { idempotencyKey: `plan_end:${sub.providerSubscriptionId}` },
      );
      if ((await record(sub.userId, s)) === 'recorded') ended++;
    }
    return ended;
  }

  return { available, checkout, portal, switchPlan, cancel, resume, prepareEvent, endAfterGrace };
}

export type StripeBilling = ReturnType<typeof createStripeBilling>;
