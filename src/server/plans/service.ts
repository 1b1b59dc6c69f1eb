import { and, asc, desc, eq, lte, ne, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Page } from '../../shared/marketplace';
import { cardLabel } from '../../shared/notifications';
import { creditApplied } from '../../shared/money';
import { CARD_DECLINED_MESSAGE, type Card } from '../../shared/payments';
import {
  PAID_PLANS,
  PLAN_GRACE_DAYS,
  PLAN_TERMS,
  PLANS_UNAVAILABLE_MESSAGE,
  periodEnd,
  planName,
  unusedCents,
  type PaidPlan,
} from '../../shared/plans';
import type { PlanCharge, PlanView } from '../../shared/plans-api';
import { cursorInstant, cursorUuid, keysetList, type PageRequest } from '../db/keyset';
import { DomainError } from '../core/domain-error';
import type { Db } from '../db/client';
import { planCharges, planSubscriptions, profiles, users } from '../db/schema';
import { isUniqueViolation } from '../db/errors';
import { creditBalance, LedgerError, post, type PaymentsProvider } from '../payments';
import type { StripeBilling } from './stripe-billing';
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
 * Paid plans on the embedded billing (issue 38, docs/plans.md): RuralRoute keeps each member's plan, its paid period
 * and the card its renewals charge, and moves the plan itself on the app's clock (the plans sweep).
 *
 *   charge:  claim a 'pending' plan charge (one per member at a time) -> charge the card outside any transaction,
 *            under the key plan_charge:<id> -> in one transaction: the charge 'paid', its ledger transactions (a
 *            switch's unused time credited back, then the price from credit first and the card), the plan moved,
 *            profiles.plan written (what every benefit reads) and the member's notice with its receipt.
 *   renewal: the sweep charges every plan whose period ended (once per period: the charge's period start is the
 *            old end); a declined card gives PLAN_GRACE_DAYS of grace ('past_due'), then the member is Free.
 *   cancel:  the plan runs to the end of its period, then the sweep makes the member Free.
 *
 * A crash between the card's charge and the commit leaves a 'pending' charge: the sweep repairs it after
 * STALE_PENDING_MS, applying what the provider charged under its key (or refunding it when the plan moved meanwhile),
 * never charging again.
 */

const DAY_MS = 86_400_000;
/** A pending plan charge older than this was left by a crash (a charge takes seconds). */
export const STALE_PLAN_CHARGE_MS = 10 * 60_000;

export const PLAN_IN_PROGRESS_MESSAGE = 'A payment for your plan is in progress. Try again in a moment.';
export const CREDIT_CHANGED_MESSAGE = 'Your RuralRoute credit changed meanwhile. Try again.';
export const STRIPE_PAGES_MESSAGE =
  "Plans are paid on Stripe's secure page here: use 'Upgrade' or 'Card and invoices'.";
export const EMBEDDED_PAGES_MESSAGE = 'Plans are paid in RuralRoute itself here: no Stripe page is used.';

const planState = (message: string) => new DomainError('plan_state', message);
const chargeKey = (chargeId: string) => `plan_charge:${chargeId}`;

type Charge = typeof planCharges.$inferSelect;

/** What a new charge is for: the plan, its kind, the period it pays and the unused time credited towards it. */
interface ChargePlan {
  userId: string;
  plan: PaidPlan;
  kind: Charge['kind'];
  periodStart: Date;
  periodEnd: Date;
  prorationCents: number;
  paymentMethodId: string;
  cardBrand: string | null;
  cardLast4: string | null;
}

export function createPlans(
  db: Db,
  provider: PaymentsProvider,
  clock: () => Date,
  /** Under PAYMENTS_PROVIDER=stripe: plans go through Stripe Billing (stripe-billing.ts) instead of saved cards. */
  stripeBilling: StripeBilling | null = null,
) {
  const available = stripeBilling ? stripeBilling.available : provider.name === 'test';

  function requireAvailable() {
    if (!available) throw new DomainError('plans_unavailable', PLANS_UNAVAILABLE_MESSAGE);
    if (stripeBilling) throw planState(STRIPE_PAGES_MESSAGE);
  }

  /** The member's plan is billed by Stripe: its moves are made there (and recorded from the answer). */
  const onStripe = (sub: Subscription | null) => !!stripeBilling && sub?.provider === 'stripe';

  /** What switching to `plan` now would cost: the price, the unused time credited, the credit and the card. */
  async function switchQuote(userId: string, sub: Subscription, plan: PaidPlan, at: Date) {
    const price = PLAN_TERMS[plan].priceCents;
    const unused = unusedCents(sub.periodPriceCents, sub.currentPeriodStart, sub.currentPeriodEnd, at);
    const applied = Math.min(unused, price);
    // Stripe's invoices do not spend RuralRoute credit.
    const credit = stripeBilling ? 0 : creditApplied(price - applied, await creditBalance(db, userId));
    return {
      plan,
      price_cents: price,
      proration_cents: applied,
      credit_cents: credit,
      card_cents: price - applied - credit,
      credit_left_cents: unused - applied,
    };
  }

  async function view(userId: string): Promise<PlanView> {
    const sub = await subscriptionOf(db, userId);
    const at = clock();
    const current = running(sub) ? (sub.plan as PaidPlan) : null;
    const other = current ? PAID_PLANS.find((p) => p !== current)! : null;
    return {
      plan: current ?? 'free',
      status: running(sub) ? (sub.status as 'active' | 'past_due') : null,
      current_period_end: running(sub) ? sub.currentPeriodEnd.toISOString() : null,
      cancel_at_period_end: running(sub) ? sub.cancelAtPeriodEnd : false,
      grace_until: running(sub) && sub.graceUntil ? sub.graceUntil.toISOString() : null,
      card: sub?.cardLast4 ? { brand: sub.cardBrand, last4: sub.cardLast4 } : null,
      switch_quote: current && other && sub?.status === 'active' ? await switchQuote(userId, sub, other, at) : null,
      credit_cents: await creditBalance(db, userId),
      test_mode: !provider.live,
      available,
      billing: stripeBilling ? 'stripe' : 'embedded',
    };
  }

  async function saveCard(userId: string, card: Card) {
    const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
    const saved = await provider.saveCard({ userId, email: user?.email ?? '', source: { card } });
    if (saved.status === 'declined') throw new DomainError('card_declined', CARD_DECLINED_MESSAGE);
    return saved;
  }

  /** Claims the member's one pending charge and charges the card. Returns the charge, or throws card_declined. */
  async function claimAndCharge(c: ChargePlan, claim?: (tx: Db) => Promise<boolean>): Promise<Charge | null> {
    const price = PLAN_TERMS[c.plan].priceCents;
    const applied = Math.min(c.prorationCents, price);
    const credit = creditApplied(price - applied, await creditBalance(db, c.userId));
    let charge: Charge;
    try {
      const claimed = await db.transaction(async (tx) => {
        if (claim && !(await claim(tx))) return null;
        const [row] = await tx
          .insert(planCharges)
          .values({
            userId: c.userId,
            plan: c.plan,
            kind: c.kind,
            amountCents: price,
            prorationCents: applied,
            creditCents: credit,
            cardCents: price - applied - credit,
            periodStart: c.periodStart,
            periodEnd: c.periodEnd,
            provider: provider.name,
            cardBrand: c.cardBrand,
            cardLast4: c.cardLast4,
            createdAt: clock(),
          })
          .returning();
        return row!;
      });
      if (!claimed) return null;
      charge = claimed;
    } catch (err) {
      if (isUniqueViolation(err)) throw planState(PLAN_IN_PROGRESS_MESSAGE);
      throw err;
    }
    if (charge.cardCents === 0) return charge;
    const result = await provider.charge({
      amountCents: charge.cardCents,
      currency: 'usd',
      idempotencyKey: chargeKey(charge.id),
      source: { paymentMethodId: c.paymentMethodId },
      description: `RuralRoute ${planName(c.plan)} (${c.kind})`,
      transferGroup: `plan:${c.userId}`,
      metadata: { plan_charge_id: charge.id, user_id: c.userId, plan: c.plan },
    });
    if (result.status === 'declined') {
      await db
        .update(planCharges)
        .set({ state: 'failed', cardLast4: result.cardLast4 ?? charge.cardLast4 })
        .where(and(eq(planCharges.id, charge.id), eq(planCharges.state, 'pending')));
      return { ...charge, state: 'failed' };
    }
    return { ...charge, providerChargeId: result.chargeId, cardBrand: result.cardBrand, cardLast4: result.cardLast4 };
  }

  /**
   * In one transaction: the charge paid, its ledger transactions, the plan moved by `move` (given the locked
   * subscription; false when the plan moved meanwhile, and the charge is then refunded), profiles.plan and the notice.
   */
  async function applyPaid(
    charge: Charge,
    kind: 'subscribed' | 'renewed' | 'switched',
    move: (tx: Db, sub: Subscription | null) => Promise<boolean>,
    /** A switch: the whole unused time of the plan it replaces (credited back; what the price does not take stays). */
    unusedTotal = 0,
  ): Promise<boolean> {
    const at = clock();
    try {
      const applied = await db.transaction(async (tx) => {
        const sub = await subscriptionOf(tx, charge.userId, true);
        if (!(await move(tx, sub))) {
          await markFailed(tx, charge);
          return false;
        }
        const [paid] = await tx
          .update(planCharges)
          .set({
            state: 'paid',
            paidAt: at,
            providerChargeId: charge.providerChargeId,
            cardBrand: charge.cardBrand,
            cardLast4: charge.cardLast4,
          })
          .where(and(eq(planCharges.id, charge.id), eq(planCharges.state, 'pending')))
          .returning();
        if (!paid) throw planState(PLAN_IN_PROGRESS_MESSAGE);
        if (unusedTotal > 0)
          await post(tx, {
            kind: 'plan_proration',
            key: `${chargeKey(charge.id)}:proration`,
            lines: [
              { account: 'plan_revenue', amount: -unusedTotal },
              { account: { credit: charge.userId }, amount: unusedTotal },
            ],
          });
        await post(tx, {
          kind: 'plan_charge',
          key: chargeKey(charge.id),
          lines: [
            { account: 'outside', amount: -charge.cardCents },
            { account: { credit: charge.userId }, amount: -(charge.prorationCents + charge.creditCents) },
            { account: 'plan_revenue', amount: charge.amountCents },
          ],
        });
        await tx.update(profiles).set({ plan: charge.plan }).where(eq(profiles.userId, charge.userId));
        await notifyPlan(tx, [chargeNotice(paid, kind, at, !provider.live)]);
        return true;
      });
      if (!applied) await refundCard(charge);
      return applied;
    } catch (err) {
      if (!(err instanceof LedgerError)) throw err;
      // The credit counted before the charge was spent meanwhile: nothing moved; the card is given back.
      await failCharge(charge);
      throw planState(CREDIT_CHANGED_MESSAGE);
    }
  }

  /** The whole unused time of the current period (a switch credits it; what the new price does not take stays credit). */
  const switchUnused = (sub: Subscription, at: Date) =>
    unusedCents(sub.periodPriceCents, sub.currentPeriodStart, sub.currentPeriodEnd, at);

  const markFailed = (exec: Db, charge: Charge) =>
    exec
      .update(planCharges)
      .set({ state: 'failed' })
      .where(and(eq(planCharges.id, charge.id), eq(planCharges.state, 'pending')));

  /** The card payment of a charge that will not be applied, given back (by its own key: once, whatever repeats). */
  async function refundCard(charge: Charge) {
    if (charge.providerChargeId && charge.cardCents > 0)
      await provider.refund({
        chargeId: charge.providerChargeId,
        amountCents: charge.cardCents,
        idempotencyKey: `${chargeKey(charge.id)}:refund`,
      });
  }

  /** A charge that will not be applied: 'failed' (after its transaction), and its card payment refunded. */
  async function failCharge(charge: Charge) {
    await markFailed(db, charge);
    await refundCard(charge);
  }

  /** Free (or a plan that ended) to a paid plan, with a new card: the first period starts now. */
  async function subscribe(userId: string, plan: PaidPlan, card: Card): Promise<PlanView> {
    requireAvailable();
    const before = await subscriptionOf(db, userId);
    if (running(before))
      throw planState(
        before.plan === plan
          ? `You are on ${planName(plan)} already.`
          : `You are on ${planName(before.plan as PaidPlan)}. Switch plans instead.`,
      );
    const saved = await saveCard(userId, card);
    const start = clock();
    const charge = await claimAndCharge(
      {
        userId,
        plan,
        kind: 'subscribe',
        periodStart: start,
        periodEnd: periodEnd(start, PLAN_TERMS[plan].period),
        prorationCents: 0,
        paymentMethodId: saved.paymentMethodId,
        cardBrand: saved.cardBrand,
        cardLast4: saved.cardLast4,
      },
      async (tx) => !running(await subscriptionOf(tx, userId)),
    );
    if (!charge) throw planState('Your plan changed meanwhile. Check it and try again.');
    if (charge.state === 'failed') throw new DomainError('card_declined', CARD_DECLINED_MESSAGE);
    const applied = await applyPaid(charge, 'subscribed', async (tx, sub) => {
      if (running(sub)) return false;
      const values = {
        plan,
        status: 'active',
        periodPriceCents: charge.amountCents,
        currentPeriodStart: charge.periodStart,
        currentPeriodEnd: charge.periodEnd,
        cancelAtPeriodEnd: false,
        graceUntil: null,
        provider: provider.name,
        paymentMethodId: saved.paymentMethodId,
        cardBrand: saved.cardBrand,
        cardLast4: saved.cardLast4,
        updatedAt: clock(),
      };
      await tx
        .insert(planSubscriptions)
        .values({ userId, ...values })
        .onConflictDoUpdate({ target: planSubscriptions.userId, set: values });
      return true;
    });
    if (!applied) throw planState('Your plan changed meanwhile. Check it and try again.');
    return view(userId);
  }

  /** Plus to Community or back, at once: the unused time of the current period is credited towards the new one. */
  async function switchPlan(userId: string, plan: PaidPlan): Promise<PlanView> {
    const sub = await subscriptionOf(db, userId);
    if (onStripe(sub)) {
      await stripeBilling!.switchPlan(userId, plan);
      return view(userId);
    }
    requireAvailable();
    if (!running(sub)) throw planState('You are on the Free plan. Choose a plan first.');
    if (sub.plan === plan) throw planState(`You are on ${planName(plan)} already.`);
    if (sub.status === 'past_due')
      throw planState(`Your last payment failed. Update your card before switching plans.`);
    if (!sub.paymentMethodId) throw planState('Add a card first.');
    // The plan switched from must still be the one whose unused time is counted.
    const unchanged = (now: Subscription | null) =>
      running(now) &&
      now.status === 'active' &&
      now.plan === sub.plan &&
      now.currentPeriodStart.getTime() === sub.currentPeriodStart.getTime();
    const start = clock();
    const unused = switchUnused(sub, start);
    const charge = await claimAndCharge(
      {
        userId,
        plan,
        kind: 'switch',
        periodStart: start,
        periodEnd: periodEnd(start, PLAN_TERMS[plan].period),
        prorationCents: unused,
        paymentMethodId: sub.paymentMethodId,
        cardBrand: sub.cardBrand,
        cardLast4: sub.cardLast4,
      },
      async (tx) => unchanged(await subscriptionOf(tx, userId)),
    );
    if (!charge) throw planState('Your plan changed meanwhile. Check it and try again.');
    if (charge.state === 'failed') throw new DomainError('card_declined', CARD_DECLINED_MESSAGE);
    const applied = await applyPaid(
      charge,
      'switched',
      async (tx, now) => {
        if (!unchanged(now)) return false;
        await tx
          .update(planSubscriptions)
          .set({
            plan,
            periodPriceCents: charge.amountCents,
            currentPeriodStart: charge.periodStart,
            currentPeriodEnd: charge.periodEnd,
            cancelAtPeriodEnd: false,
            updatedAt: clock(),
          })
          .where(eq(planSubscriptions.userId, userId));
        return true;
      },
      unused,
    );
    if (!applied) throw planState('Your plan changed meanwhile. Check it and try again.');
    return view(userId);
  }

  /** 'Cancel plan': no renewal; the plan runs until the end of its paid period (a failed one ends now). */
  async function cancel(userId: string): Promise<PlanView> {
    if (onStripe(await subscriptionOf(db, userId))) {
      await stripeBilling!.cancel(userId);
      return view(userId);
    }
    await db.transaction(async (tx) => {
      const sub = await subscriptionOf(tx, userId, true);
      if (!running(sub)) throw planState('You are on the Free plan.');
      if (sub.status === 'past_due') await endPlans(tx, [sub], clock());
      else
        await tx
          .update(planSubscriptions)
          .set({ cancelAtPeriodEnd: true, updatedAt: clock() })
          .where(eq(planSubscriptions.userId, userId));
    });
    return view(userId);
  }

  /** 'Keep my plan': a cancelled plan renews again at the end of its period. */
  async function resume(userId: string): Promise<PlanView> {
    if (onStripe(await subscriptionOf(db, userId))) {
      await stripeBilling!.resume(userId);
      return view(userId);
    }
    const [row] = await db
      .update(planSubscriptions)
      .set({ cancelAtPeriodEnd: false, updatedAt: clock() })
      .where(
        and(
          eq(planSubscriptions.userId, userId),
          eq(planSubscriptions.status, 'active'),
          eq(planSubscriptions.cancelAtPeriodEnd, true),
        ),
      )
      .returning({ userId: planSubscriptions.userId });
    if (!row) throw planState('Your plan is not cancelled.');
    return view(userId);
  }

  /** 'Update card': the card renewals charge; after a failed renewal, the renewal is tried again with it at once. */
  async function updateCard(userId: string, card: Card): Promise<PlanView> {
    requireAvailable();
    const sub = await subscriptionOf(db, userId);
    if (!running(sub)) throw planState('You are on the Free plan. Choose a plan first.');
    const saved = await saveCard(userId, card);
    await db
      .update(planSubscriptions)
      .set({
        paymentMethodId: saved.paymentMethodId,
        cardBrand: saved.cardBrand,
        cardLast4: saved.cardLast4,
        updatedAt: clock(),
      })
      .where(eq(planSubscriptions.userId, userId));
    if (sub.status === 'past_due') {
      const renewed = await renew(userId);
      if (renewed === 'failed') throw new DomainError('card_declined', CARD_DECLINED_MESSAGE);
    }
    return view(userId);
  }

  /**
   * Charges the renewal of one member's plan, once per period (the charge's period starts at the old end). Returns
   * 'renewed', 'failed' (declined: past due with grace, or still past due), or 'skipped' (not due, or another
   * instance is renewing it).
   */
  async function renew(userId: string): Promise<'renewed' | 'failed' | 'skipped'> {
    const sub = await subscriptionOf(db, userId);
    if (!running(sub) || !sub.paymentMethodId) return 'skipped';
    const plan = sub.plan as PaidPlan;
    const charge = await claimAndCharge(
      {
        userId,
        plan,
        kind: 'renewal',
        periodStart: sub.currentPeriodEnd,
        periodEnd: periodEnd(sub.currentPeriodEnd, PLAN_TERMS[plan].period),
        prorationCents: 0,
        paymentMethodId: sub.paymentMethodId,
        cardBrand: sub.cardBrand,
        cardLast4: sub.cardLast4,
      },
      async (tx) => {
        // Under the subscription's lock: still due, and this period not charged yet (by another instance).
        const locked = await subscriptionOf(tx, userId, true);
        if (!running(locked) || locked.cancelAtPeriodEnd) return false;
        if (locked.currentPeriodEnd.getTime() !== sub.currentPeriodEnd.getTime()) return false;
        if (locked.status === 'active' && locked.currentPeriodEnd > clock()) return false;
        const [done] = await tx
          .select({ id: planCharges.id })
          .from(planCharges)
          .where(
            and(
              eq(planCharges.userId, userId),
              eq(planCharges.kind, 'renewal'),
              eq(planCharges.periodStart, sub.currentPeriodEnd),
              eq(planCharges.state, 'paid'),
            ),
          );
        return !done;
      },
    ).catch((err: unknown) => {
      // Another charge of this member is in progress (another instance renewing it): skipped this time.
      if (err instanceof DomainError && err.code === 'plan_state') return null;
      throw err;
    });
    if (!charge) return 'skipped';
    const was: Subscription = sub;
    if (charge.state === 'failed') {
      await pastDue(was);
      return 'failed';
    }
    const applied = await applyPaid(charge, 'renewed', (tx, now) => startRenewedPeriod(tx, now, charge));
    return applied ? 'renewed' : 'skipped';
  }

  /**
   * A paid renewal's move (the sweep's, or a crash's repair): only while the plan still waits for that period (its
   * end is the charge's start), the next period starts, active again, any grace over.
   */
  async function startRenewedPeriod(tx: Db, sub: Subscription | null, charge: Charge): Promise<boolean> {
    if (!running(sub) || sub.currentPeriodEnd.getTime() !== charge.periodStart.getTime()) return false;
    await tx
      .update(planSubscriptions)
      .set({
        status: 'active',
        graceUntil: null,
        periodPriceCents: charge.amountCents,
        currentPeriodStart: charge.periodStart,
        currentPeriodEnd: charge.periodEnd,
        updatedAt: clock(),
      })
      .where(eq(planSubscriptions.userId, charge.userId));
    return true;
  }

  /** A declined renewal: 'past_due' with PLAN_GRACE_DAYS of grace (the first time), the banner, the e-mail. */
  async function pastDue(sub: Subscription) {
    const at = clock();
    await db.transaction(async (tx) => {
      const [moved] = await tx
        .update(planSubscriptions)
        .set({ status: 'past_due', graceUntil: new Date(at.getTime() + PLAN_GRACE_DAYS * DAY_MS), updatedAt: at })
        .where(
          and(
            eq(planSubscriptions.userId, sub.userId),
            eq(planSubscriptions.status, 'active'),
            eq(planSubscriptions.currentPeriodEnd, sub.currentPeriodEnd),
          ),
        )
        .returning({ userId: planSubscriptions.userId });
      if (moved) await notifyPlan(tx, [paymentFailedNotice(sub, at)]);
    });
  }

  /**
   * The plans sweep (every instance, on a timer; tests run it after moving the app's clock): ends cancelled plans at
   * their period's end and failed ones at their grace's end, renews the rest, repairs charges left by a crash.
   * Several instances may run it at once: every move is guarded by the subscription's lock and its state.
   */
  async function sweep(): Promise<{ renewed: number; failed: number; ended: number; repaired: number }> {
    const at = clock();
    const ended = await db.transaction(async (tx) => {
      const due = await tx
        .select()
        .from(planSubscriptions)
        .where(
          sql`(${planSubscriptions.status} = 'active' and ${planSubscriptions.cancelAtPeriodEnd}
                and ${planSubscriptions.currentPeriodEnd} <= ${at})
              or (${planSubscriptions.status} = 'past_due' and ${planSubscriptions.graceUntil} <= ${at}
                  and ${planSubscriptions.provider} <> 'stripe')`,
        )
        .orderBy(asc(planSubscriptions.userId))
        .for('update', { skipLocked: true });
      await endPlans(tx, due, clock());
      return due.length;
    });
    const due = await db
      .select({ userId: planSubscriptions.userId })
      .from(planSubscriptions)
      .where(
        and(
          eq(planSubscriptions.status, 'active'),
          eq(planSubscriptions.cancelAtPeriodEnd, false),
          lte(planSubscriptions.currentPeriodEnd, at),
          // Stripe renews its own subscriptions (invoice.paid records them).
          ne(planSubscriptions.provider, 'stripe'),
        ),
      )
      .orderBy(asc(planSubscriptions.currentPeriodEnd))
      .limit(500);
    let renewed = 0;
    let failed = 0;
    for (const { userId } of due) {
      const outcome = await renew(userId);
      if (outcome === 'renewed') renewed++;
      if (outcome === 'failed') failed++;
    }
    const endedOnStripe = stripeBilling ? await stripeBilling.endAfterGrace(at) : 0;
    return { renewed, failed, ended: ended + endedOnStripe, repaired: await repairStale(at) };
  }

  /** Pending charges a crash left: applied when the provider charged them and the plan still waits, else failed. */
  async function repairStale(at: Date): Promise<number> {
    const stale = await db
      .select()
      .from(planCharges)
      .where(
        and(
          eq(planCharges.state, 'pending'),
          lte(planCharges.createdAt, new Date(at.getTime() - STALE_PLAN_CHARGE_MS)),
        ),
      );
    for (const charge of stale) {
      const found = charge.cardCents > 0 ? await provider.findCharge(chargeKey(charge.id)) : null;
      const paid: Charge | null =
        charge.cardCents === 0
          ? charge
          : found?.status === 'succeeded'
            ? { ...charge, providerChargeId: found.chargeId, cardBrand: found.cardBrand, cardLast4: found.cardLast4 }
            : null;
      if (!paid) {
        await failCharge(charge);
        continue;
      }
      // Applied only as the move it was for, and only if the plan is still where it was; otherwise refunded.
      await applyPaid(paid, charge.kind === 'renewal' ? 'renewed' : 'subscribed', async (tx, sub) =>
        charge.kind === 'renewal' ? startRenewedPeriod(tx, sub, charge) : false,
      ).catch((err: unknown) => {
        if (!(err instanceof DomainError)) throw err;
      });
    }
    return stale.length;
  }

  /** The 'Paid' tab's plan payments: my paid charges, newest first (keyset pages). */
  const chargeList = keysetList({
    name: 'plan_charges_paid',
    from: () => db.select().from(planCharges).$dynamic(),
    filter: sql`${planCharges.userId} = ${sql.placeholder('userId')} and ${planCharges.state} = 'paid'`,
    after: sql`(${planCharges.createdAt}, ${planCharges.id}) < (${sql.placeholder('at')}::timestamptz, ${sql.placeholder('id')}::uuid)`,
    orderBy: [desc(planCharges.createdAt), desc(planCharges.id)],
    cursor: z.tuple([cursorInstant, cursorUuid]),
    bind: ([at, id]) => ({ at, id }),
    sortKey: (r) => [r.createdAt.toISOString(), r.id],
  });
  const charges = (userId: string, page: PageRequest): Promise<Page<PlanCharge>> =>
    chargeList({ userId }, page, (r) => ({
      id: r.id,
      plan: r.plan as PaidPlan,
      kind: r.kind as PlanCharge['kind'],
      amount_cents: r.amountCents,
      proration_cents: r.prorationCents,
      credit_cents: r.creditCents,
      card_cents: r.cardCents,
      card: r.cardCents > 0 && r.cardLast4 ? cardLabel(r.cardBrand, r.cardLast4) : null,
      period_start: r.periodStart.toISOString(),
      period_end: r.periodEnd.toISOString(),
      paid_at: r.paidAt!.toISOString(),
      test_mode: r.provider === 'test',
    }));

  /** Stripe Checkout's page for a new plan, or Stripe's customer portal (cards, invoices): PAYMENTS_PROVIDER=stripe. */
  function stripePage(kind: 'checkout', userId: string, plan: PaidPlan): Promise<{ url: string }>;
  function stripePage(kind: 'portal', userId: string): Promise<{ url: string }>;
  function stripePage(kind: 'checkout' | 'portal', userId: string, plan?: PaidPlan) {
    if (!stripeBilling) throw planState(EMBEDDED_PAGES_MESSAGE);
    return kind === 'checkout' ? stripeBilling.checkout(userId, plan!) : stripeBilling.portal(userId);
  }

  return {
    view,
    subscribe,
    switchPlan,
    cancel,
    resume,
    updateCard,
    renew,
    sweep,
    charges,
    checkout: (userId: string, plan: PaidPlan) => stripePage('checkout', userId, plan),
    portal: (userId: string) => stripePage('portal', userId),
    /** A stored provider event's part for plans (the webhook job), or undefined. */
    prepareEvent: (type: string, payload: unknown) => stripeBilling?.prepareEvent(type, payload),
  };
}

export type Plans = ReturnType<typeof createPlans>;
