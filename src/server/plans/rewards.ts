import { and, count, eq } from 'drizzle-orm';
import { REWARD_CENTS, REWARD_MILESTONES } from '../../shared/plans';
import type { Db } from '../db/client';
import { bookings, profiles } from '../db/schema';
import type { NewNotification } from '../notifications';
import { post } from '../payments';

/**
 * Community rewards (issue 38): a Community member's 10th, 25th and 50th completed delivery as a driver each earn a
 * REWARD_CENTS RuralRoute credit (spent before the card on their own deliveries). Called inside the completing
 * transaction, after the booking is 'completed': the credit and its notice commit with the delivery or not at all.
 * A Community driver's profile row is locked first, so two of their deliveries completing at once are counted one
 * after the other (neither milestone is skipped), and the ledger key `reward:<driver>:<n>` pays each milestone once.
 * Other drivers pay one indexed read.
 */
export async function rewardOnCompletion(tx: Db, driverId: string): Promise<NewNotification | null> {
  const [member] = await tx
    .select({ userId: profiles.userId })
    .from(profiles)
    .where(and(eq(profiles.userId, driverId), eq(profiles.plan, 'community')))
    .for('update');
  if (!member) return null;
  const [row] = await tx
    .select({ n: count() })
    .from(bookings)
    .where(and(eq(bookings.driverId, driverId), eq(bookings.status, 'completed')));
  const n = Number(row?.n ?? 0);
  if (!(REWARD_MILESTONES as readonly number[]).includes(n)) return null;
  const posted = await post(tx, {
    kind: 'reward',
    key: `reward:${driverId}:${n}`,
    lines: [
      { account: 'rewards', amount: -REWARD_CENTS },
      { account: { credit: driverId }, amount: REWARD_CENTS },
    ],
  });
  if (!posted) return null;
  return {
    userId: driverId,
    type: 'plan',
    data: { kind: 'reward', plan: 'Community', amount_cents: REWARD_CENTS, count: n },
  };
}
