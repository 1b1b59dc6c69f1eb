import { and, eq } from 'drizzle-orm';
import { EARLY_ACCESS_PLAN, EARLY_ACCESS_TEXT, earlyAccessFrom } from '../../shared/early-access';
import type { EarlyAccessView } from '../../shared/early-access-api';
import { DomainError, notFound } from '../core/domain-error';
import type { Db } from '../db/client';
import { profiles } from '../db/schema';

/**
 * Early access (issue 38, decision 035): Settings' 'Try new features first'. On for a member while their plan is
 * Community (`profiles.plan`, written by every plan move) AND their saved switch (`profiles.early_access`) is on. A
 * member who leaves Community loses it with the plan move's commit; the switch stays as they saved it.
 */
const switchOf = async (db: Db, userId: string) =>
  (
    await db
      .select({ plan: profiles.plan, saved: profiles.earlyAccess })
      .from(profiles)
      .where(eq(profiles.userId, userId))
  )[0];

/** The one server check: are early-access features on for this member now? */
export async function earlyAccessOn(db: Db, userId: string): Promise<boolean> {
  const row = await switchOf(db, userId);
  return row ? earlyAccessFrom(row.plan, row.saved) : false;
}

const viewFrom = (row: { plan: string | null; saved: boolean }): EarlyAccessView => ({
  on: earlyAccessFrom(row.plan, row.saved),
  saved: row.saved,
  available: row.plan === EARLY_ACCESS_PLAN,
});

/** Settings' 'Try new features first': `GET` and `PUT /api/account/early-access`, on the caller's own row only. */
export function createEarlyAccess(db: Db) {
  async function view(userId: string): Promise<EarlyAccessView> {
    const row = await switchOf(db, userId);
    if (!row) throw notFound('Account not found.');
    return viewFrom(row);
  }

  /**
   * Saves the switch, only while the plan is Community: the plan is checked in the UPDATE itself, so a plan move
   * committing at the same moment cannot slip between a check and the write. Otherwise 403 plan_required and
   * nothing changes.
   */
  async function set(userId: string, on: boolean): Promise<EarlyAccessView> {
    const [row] = await db
      .update(profiles)
      .set({ earlyAccess: on })
      .where(and(eq(profiles.userId, userId), eq(profiles.plan, EARLY_ACCESS_PLAN)))
      .returning({ plan: profiles.plan, saved: profiles.earlyAccess });
    if (!row) throw new DomainError('plan_required', EARLY_ACCESS_TEXT.needsPlan);
    return viewFrom(row);
  }

  return { view, set };
}

export type EarlyAccess = ReturnType<typeof createEarlyAccess>;
