import { REWARD_CENTS, REWARD_MILESTONES } from '../../shared/plans';
import { notifyInput } from '../notifications';
import { ledgerPosting } from '../payments';

/**
 * Community rewards (issue 38): a Community member's 10th, 25th and 50th completed delivery as a driver each earn a
 * REWARD_CENTS RuralRoute credit (spent before the card on their own deliveries). Applied by the completing move
 * (rr_booking_move, migration 0042), after the booking is 'completed': the credit and its notice commit with the
 * delivery or not at all. A Community driver's profile row is locked first, so two of their deliveries completing at
 * once are counted one after the other (neither milestone is skipped), and the ledger key `reward:<driver>:<n>` (the
 * count appended by the function) pays each milestone once. Other drivers pay one indexed read.
 *
 * This is the reward as the function takes it: the plan that earns it, the milestones, the posting with its key
 * before the count, and the notice before its `count`.
 */
export function rewardOnCompletion(driverId: string) {
  return {
    plan: 'community',
    milestones: REWARD_MILESTONES,
    ledger: ledgerPosting({
      kind: 'reward',
      key: `reward:${driverId}:`,
      lines: [
        { account: 'rewards', amount: -REWARD_CENTS },
        { account: { credit: driverId }, amount: REWARD_CENTS },
      ],
    }),
    notice: notifyInput({
      userId: driverId,
      type: 'plan',
      data: { kind: 'reward', plan: 'Community', amount_cents: REWARD_CENTS },
    }),
  };
}
