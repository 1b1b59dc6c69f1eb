import { eq } from 'drizzle-orm';
import type { PaidPlan, Plan } from '../../shared/plans';
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
