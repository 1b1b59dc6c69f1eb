import { eq } from 'drizzle-orm';
import type { PaidPlan } from '../../shared/plans';
import type { Db } from '../db/client';
import { profiles } from '../db/schema';

/** Puts a member on a paid plan (or back on Free with null), as a plan move leaves `profiles.plan`. */
export async function setPlan(db: Db, userId: string, plan: PaidPlan | null): Promise<void> {
  await db.update(profiles).set({ plan }).where(eq(profiles.userId, userId));
}
