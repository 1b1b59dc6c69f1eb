import type { Db } from '../db/client';
import { enqueue } from '../jobs';

/** The job that pays a driver's whole Available balance out, when their payouts are set up (docs/payments.md). */
export const PAYOUT_RUN_JOB = 'payout_run';
/** The job that sends one decided payout through the provider. */
export const PAYOUT_SEND_JOB = 'payout_send';

/**
 * Inside the transaction that gives a driver money to pay out (a release, payouts becoming active): a payout run is
 * enqueued with it. Runs for one driver serialise on their ledger account, so two at once pay the balance once.
 */
export async function enqueuePayoutRun(tx: Db, userId: string): Promise<void> {
  await enqueue(tx, { kind: PAYOUT_RUN_JOB, payload: { userId } });
}
