import { eq, sql, type SQLWrapper } from 'drizzle-orm';
import { planName, type PaidPlan, type Plan } from '../../shared/plans';
import { GUARANTEE_CAP_CENTS, GUARANTEE_MEMBER_CAP_CENTS } from '../../shared/disputes';
import type { Db } from '../db/client';
import { profiles } from '../db/schema';

/**
 * The one answer to "which plan gives this member its benefits now" (issue 38): `profiles.plan`, which every plan
 * move writes in its own transaction (subscribing, switching, the end of a period or of a failed renewal's grace, by
 * the plans sweep on the app's clock). Every benefit reads it here, or joins `profiles.plan` in its own query.
 */
export async function planOf(db: Db, userId: string): Promise<Plan> {
  const [row] = await db.select({ plan: profiles.plan }).from(profiles).where(eq(profiles.userId, userId));
  return planFrom(row?.plan);
}

/** A `profiles.plan` value read in another query (the session's), as a Plan: null is Free. */
export const planFrom = (plan: string | null | undefined): Plan => (plan as PaidPlan | null | undefined) ?? 'free';

/** Whether a plan gives the Plus benefits (Community includes everything in Plus). */
export const isPaid = (plan: Plan | null | undefined): plan is PaidPlan => plan === 'plus' || plan === 'community';

/** The paid plan's name that waives a requester's service fee ('Plus', 'Community'), or null on Free (issue 38). */
export async function feeWaiverOf(db: Db, userId: string): Promise<string | null> {
  return feeWaiverFor(await planOf(db, userId));
}

/** feeWaiverOf for a plan read in another query. */
export const feeWaiverFor = (plan: Plan): string | null => (isPaid(plan) ? planName(plan) : null);

/** The Delivery Guarantee's cap for a claim by this member now: $250 on Plus or Community, else $50 (issue 38). */
export async function guaranteeCapOf(db: Db, userId: string): Promise<number> {
  return guaranteeCapFor(await planOf(db, userId));
}

/** guaranteeCapOf for a plan read in another query. */
export const guaranteeCapFor = (plan: Plan): number =>
  isPaid(plan) ? GUARANTEE_MEMBER_CAP_CENTS : GUARANTEE_CAP_CENTS;

/**
 * Community's 'Ambassador' badge beside a name (issue 38), read from the `profiles` row the query already joins: its
 * `plan` column (an alias's, or `sql\`p.plan\`` in raw SQL). The one place the rule is written; null (Free) is false.
 */
export const ambassadorOf = (plan: SQLWrapper) => sql<boolean>`(${plan} is not distinct from 'community')`;

/** ambassadorOf for a `profiles.plan` value a query answered (the booking page's, migration 0047). */
export const ambassadorFor = (plan: string | null | undefined): boolean => planFrom(plan) === 'community';
