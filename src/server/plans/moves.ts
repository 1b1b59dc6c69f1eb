import { eq, inArray } from 'drizzle-orm';
import { planName, type PaidPlan } from '../../shared/plans';
import type { Db } from '../db/client';
import { planCharges, planSubscriptions, profiles } from '../db/schema';
import { Outbox } from '../events';
import { notify, type NewNotification } from '../notifications';

// The plan moves both billings make (the embedded one, service.ts, and Stripe Billing, stripe-billing.ts).

export type Subscription = typeof planSubscriptions.$inferSelect;

export async function subscriptionOf(exec: Db, userId: string, lock = false): Promise<Subscription | null> {
  const query = exec.select().from(planSubscriptions).where(eq(planSubscriptions.userId, userId));
  const [row] = lock ? await query.for('update') : await query;
  return row ?? null;
}

/** A plan that gives its benefits: active, or past due within its grace. */
export const running = (s: Subscription | null): s is Subscription => !!s && s.status !== 'canceled';

/** A plan notice ('plan' notifications: its e-mail and the in-app line), written in the caller's transaction. */
export async function notifyPlan(tx: Db, notices: NewNotification[]) {
  if (!notices.length) return;
  const out = new Outbox();
  await notify(tx, out, notices);
  await out.flush(tx);
}

/** Back to Free: the plans canceled, profiles.plan cleared, each member told. */
export async function endPlans(tx: Db, subs: Subscription[], at: Date) {
  if (!subs.length) return;
  const ids = subs.map((s) => s.userId);
  await tx
    .update(planSubscriptions)
    .set({ status: 'canceled', graceUntil: null, cancelAtPeriodEnd: false, updatedAt: at })
    .where(inArray(planSubscriptions.userId, ids));
  await tx.update(profiles).set({ plan: null }).where(inArray(profiles.userId, ids));
  await notifyPlan(
    tx,
    subs.map((s) => ({
      userId: s.userId,
      type: 'plan',
      data: { kind: 'ended', plan: planName(s.plan as PaidPlan), at: at.toISOString() },
    })),
  );
}

/** A paid charge's notice, with its receipt's lines (the e-mail and the in-app line). */
export const chargeNotice = (
  charge: typeof planCharges.$inferSelect,
  kind: 'subscribed' | 'renewed' | 'switched',
  at: Date,
  testMode: boolean,
): NewNotification => ({
  userId: charge.userId,
  type: 'plan',
  data: {
    kind,
    plan: planName(charge.plan as PaidPlan),
    total_cents: charge.amountCents,
    proration_cents: charge.prorationCents,
    credit_cents: charge.creditCents,
    amount_cents: charge.cardCents,
    last4: charge.cardCents > 0 ? (charge.cardLast4 ?? undefined) : undefined,
    card_brand: charge.cardBrand ?? undefined,
    period_end: charge.periodEnd.toISOString(),
    at: at.toISOString(),
    test_mode: testMode,
  },
});

/** The notice of a failed renewal: the banner's state is the subscription's; this is its e-mail and in-app line. */
export const paymentFailedNotice = (sub: Pick<Subscription, 'userId' | 'plan'>, at: Date): NewNotification => ({
  userId: sub.userId,
  type: 'plan',
  data: { kind: 'payment_failed', plan: planName(sub.plan as PaidPlan), at: at.toISOString() },
});
