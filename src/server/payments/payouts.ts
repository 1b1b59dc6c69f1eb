import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rowsOf } from '../db/result-rows';
import { ledgerAccounts, payoutAccounts, payouts } from '../db/schema';
import { Outbox } from '../events';
import { enqueue, type JobHandler } from '../jobs';
import { notify } from '../notifications';
import { accountKey, post } from './ledger';
import type { PaymentsProvider } from './provider';

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

/** As enqueuePayoutRun, only when the driver's payouts are active (otherwise the money waits as 'Available'). */
export async function enqueuePayoutRunIfActive(tx: Db, userId: string): Promise<void> {
  const [active] = await tx
    .select({ userId: payoutAccounts.userId })
    .from(payoutAccounts)
    .where(and(eq(payoutAccounts.userId, userId), eq(payoutAccounts.status, 'active')));
  if (active) await enqueuePayoutRun(tx, userId);
}

export type PayoutState = 'not_set_up' | 'pending' | 'active';

/**
 * Payouts: where a driver's released earnings go. Setting them up goes to the provider (the test provider takes a
 * test routing and account number and is active at once; Stripe onboards on its own pages and says when it is done
 * with account.updated). A payout run, in one transaction, takes the driver's whole Available balance (their ledger
 * account, locked) into payouts_pending with a payouts row and enqueues its send; the send job transfers it under
 * the key payout:<id> and, in one transaction, marks it paid, moves it out of payouts_pending and tells the driver.
 */
export function createPayouts(db: Db, provider: PaymentsProvider, appUrl: string) {
  async function status(userId: string): Promise<{ state: PayoutState; last4: string | null }> {
    const [row] = await db
      .select({ status: payoutAccounts.status, last4: payoutAccounts.last4 })
      .from(payoutAccounts)
      .where(eq(payoutAccounts.userId, userId));
    if (!row) return { state: 'not_set_up', last4: null };
    return { state: row.status === 'active' ? 'active' : 'pending', last4: row.last4 };
  }

  /** Sets payouts up (or continues a pending setup). Active at once: whatever is Available is paid out. */
  async function setup(
    user: { id: string; email: string },
    bank: { routingNumber: string; accountNumber: string } | undefined,
  ): Promise<{ state: PayoutState; last4: string | null; onboardingUrl: string | null }> {
    const [existing] = await db
      .select({ accountId: payoutAccounts.providerAccountId, provider: payoutAccounts.provider })
      .from(payoutAccounts)
      .where(eq(payoutAccounts.userId, user.id));
    const result = await provider.setupPayouts({
      userId: user.id,
      email: user.email,
      accountId: existing?.provider === provider.name ? existing.accountId : null,
      bank,
      returnUrl: `${appUrl}/dashboard/settings#payouts`,
      refreshUrl: `${appUrl}/dashboard/settings#payouts`,
    });
    const last4 = result.status === 'active' ? result.last4 : null;
    await db.transaction(async (tx) => {
      await tx
        .insert(payoutAccounts)
        .values({
          userId: user.id,
          provider: provider.name,
          providerAccountId: result.accountId,
          status: result.status,
          last4,
        })
        .onConflictDoUpdate({
          target: payoutAccounts.userId,
          set: {
            provider: provider.name,
            providerAccountId: result.accountId,
            status: result.status,
            last4,
            updatedAt: sql`now()`,
          },
        });
      if (result.status === 'active') await enqueuePayoutRun(tx, user.id);
    });
    return {
      state: result.status,
      last4,
      onboardingUrl: result.status === 'pending' ? result.onboardingUrl : null,
    };
  }

  const runJob: JobHandler = async (payload) => {
    const { userId } = payload as { userId: string };
    await db.transaction(async (tx) => {
      const [account] = await tx
        .select({ status: payoutAccounts.status })
        .from(payoutAccounts)
        .where(eq(payoutAccounts.userId, userId));
      if (account?.status !== 'active') return;
      // The driver's account, locked: a second run waits here and then finds nothing left to pay.
      const [balance] = rowsOf<{ balance: string }>(
        await tx.execute(
          sql`select balance::text from ${ledgerAccounts} where key = ${accountKey({ driver: userId })} for update`,
        ),
      );
      const amount = Number(balance?.balance ?? 0);
      if (amount <= 0) return;
      const [payout] = await tx
        .insert(payouts)
        .values({ userId, amountCents: amount, provider: provider.name })
        .returning({ id: payouts.id });
      await post(tx, {
        kind: 'payout',
        key: `payout:${payout!.id}:decide`,
        lines: [
          { account: { driver: userId }, amount: -amount },
          { account: 'payouts_pending', amount },
        ],
      });
      await enqueue(tx, {
        kind: PAYOUT_SEND_JOB,
        payload: { payoutId: payout!.id },
        dedupeKey: `payout:${payout!.id}:send`,
      });
    });
  };

  const sendJob: JobHandler = async (payload) => {
    const { payoutId } = payload as { payoutId: string };
    const [p] = await db
      .select({
        id: payouts.id,
        userId: payouts.userId,
        amount: payouts.amountCents,
        state: payouts.state,
        accountId: payoutAccounts.providerAccountId,
        last4: payoutAccounts.last4,
      })
      .from(payouts)
      .leftJoin(payoutAccounts, eq(payoutAccounts.userId, payouts.userId))
      .where(eq(payouts.id, payoutId));
    if (!p || p.state === 'paid') return;
    if (!p.accountId) throw new Error(`payout ${p.id}: the driver has no payout account`);
    const amount = Number(p.amount);
    const { transferId } = await provider.transfer({
      accountId: p.accountId,
      amountCents: amount,
      currency: 'usd',
      idempotencyKey: `payout:${p.id}`,
      metadata: { payout_id: p.id, user_id: p.userId },
    });
    await db.transaction(async (tx) => {
      const paid = await tx
        .update(payouts)
        .set({ state: 'paid', providerTransferId: transferId, paidAt: sql`clock_timestamp()` })
        .where(and(eq(payouts.id, p.id), eq(payouts.state, 'pending')))
        .returning({ id: payouts.id });
      if (!paid.length) return;
      await post(tx, {
        kind: 'payout_sent',
        key: `payout:${p.id}:sent`,
        lines: [
          { account: 'payouts_pending', amount: -amount },
          { account: 'outside', amount },
        ],
      });
      const out = new Outbox();
      await notify(tx, out, [
        {
          userId: p.userId,
          type: 'payout_sent',
          data: {
            amount_cents: amount,
            ...(p.last4 ? { last4: p.last4 } : {}),
            at: new Date().toISOString(),
            test_mode: !provider.live,
          },
        },
      ]);
      await out.flush(tx);
    });
  };

  return { status, setup, runJob, sendJob };
}

export type Payouts = ReturnType<typeof createPayouts>;
