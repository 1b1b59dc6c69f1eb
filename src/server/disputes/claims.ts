import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rowsOf } from '../db/result-rows';
import { disputes, ledgerAccounts, payments } from '../db/schema';
import { Outbox } from '../events';
import { enqueue, type JobHandler } from '../jobs';
import { notify, type NewNotification } from '../notifications';
import { cardRefundCents, GUARANTEE_CLAIM_JOB, post, type Line, type PaymentsProvider } from '../payments';

export { GUARANTEE_CLAIM_JOB };

/**
 * The Delivery Guarantee pays an approved claim from its reserve (decision 032): first back to the card, up to what
 * the requester paid for that delivery and has not had back; the rest as RuralRoute credit. The reserve's shards are
 * locked in id order and the claim is paid whole or not at all: when they hold less than the amount, nothing moves,
 * the claim waits ('Waiting for funds') and its job tries again later.
 */

/** Tries an approved claim again until the reserve can pay it. */
/** Sends the card part of a paid claim through the provider, then moves it out of refunds_pending. */
export const GUARANTEE_REFUND_JOB = 'guarantee_refund';
/** How long a claim waiting for funds waits before it is tried again. */
export const CLAIM_RETRY_MS = 10 * 60_000;

/** The provider's and the ledger's keys of a claim's refund (one approved claim per payment: disputes/service.ts). */
export const claimRefundKey = (paymentId: string) => `payment:${paymentId}:claim_refund`;

export interface PaidClaim {
  refundCents: number;
  creditCents: number;
  notices: NewNotification[];
}

/**
 * Inside the caller's transaction: pays the approved, unpaid claim `disputeId` from the reserve, or returns null
 * (nothing written) when the reserve cannot pay it whole, or when it is not an unpaid approved claim.
 */
export async function payClaim(tx: Db, disputeId: string): Promise<PaidClaim | null> {
  const [d] = await tx
    .select({
      id: disputes.id,
      bookingId: disputes.bookingId,
      paymentId: disputes.paymentId,
      requesterId: payments.requesterId,
      approvedCents: disputes.approvedCents,
      total: sql<string>`${payments.compensationCents} + ${payments.feeCents}`,
      credit: payments.creditCents,
      refunded: payments.refundedCents,
      provider: payments.provider,
      cardLast4: payments.cardLast4,
      cardBrand: payments.cardBrand,
    })
    .from(disputes)
    .innerJoin(payments, eq(payments.id, disputes.paymentId))
    .where(and(eq(disputes.id, disputeId), eq(disputes.decision, 'approve'), isNull(disputes.paidAt)))
    .for('update');
  if (!d || d.approvedCents === null) return null;
  const approved = d.approvedCents;
  // Every shard, locked in id order (as every posting locks accounts), so two claims never wait on each other in
  // a circle and no release adds to a shard between this count and the posting.
  const shards = rowsOf<{ key: string; balance: string }>(
    await tx.execute(sql`
      select ${ledgerAccounts.key} as key, ${ledgerAccounts.balance}::text as balance from ${ledgerAccounts}
      where ${ledgerAccounts.kind} = 'guarantee_reserve' order by ${ledgerAccounts.id} for update`),
  );
  const available = shards.reduce((s, r) => s + Number(r.balance), 0);
  if (available < approved) return null;
  const lines: Line[] = [];
  let left = approved;
  for (const shard of shards) {
    if (!left) break;
    const take = Math.min(left, Number(shard.balance));
    if (take <= 0) continue;
    lines.push({ account: { reserveShard: Number(shard.key.split(':')[1]) }, amount: -take });
    left -= take;
  }
  // The card part: what the card paid for this delivery (the total less the credit that paid) and has not had back.
  const cardPaid = Number(d.total) - Number(d.credit);
  const refundCents = Math.min(approved, cardPaid - cardRefundCents(Number(d.refunded), Number(d.credit)));
  const creditCents = approved - refundCents;
  lines.push(
    { account: 'refunds_pending', amount: refundCents },
    { account: { credit: d.requesterId }, amount: creditCents },
  );
  await post(tx, {
    kind: 'guarantee_claim',
    key: `dispute:${d.id}:claim`,
    paymentId: d.paymentId,
    bookingId: d.bookingId,
    lines,
  });
  await tx
    .update(disputes)
    .set({ paidAt: sql`clock_timestamp()`, refundCents })
    .where(eq(disputes.id, d.id));
  const notices: NewNotification[] = [];
  // The payment's own refund stays as its booking settled it: the claim's money is the dispute's (refund_cents, and
  // the rest of approved_cents as credit).
  if (refundCents > 0) {
    await enqueue(tx, {
      kind: GUARANTEE_REFUND_JOB,
      payload: { disputeId: d.id },
      dedupeKey: claimRefundKey(d.paymentId),
    });
    notices.push({
      userId: d.requesterId,
      type: 'payment_refunded',
      bookingId: d.bookingId,
      data: {
        amount_cents: refundCents,
        ...(d.cardLast4 ? { last4: d.cardLast4 } : {}),
        ...(d.cardBrand ? { card_brand: d.cardBrand } : {}),
        at: new Date().toISOString(),
        test_mode: d.provider === 'test',
      },
    });
  }
  return { refundCents, creditCents, notices };
}

/** Inside the decision's transaction, when the reserve could not pay: the claim is tried again later. */
export const enqueueClaimRetry = (tx: Db, disputeId: string) =>
  enqueue(tx, {
    kind: GUARANTEE_CLAIM_JOB,
    payload: { disputeId },
    dedupeKey: `dispute:${disputeId}:claim`,
    runAt: new Date(Date.now() + CLAIM_RETRY_MS),
  });

export function createClaimJobs(db: Db, provider: PaymentsProvider) {
  /** A claim waiting for funds: paid now if the reserve can, else deferred again (never paid in part). */
  const claimJob: JobHandler = async (payload) => {
    const { disputeId } = payload as { disputeId: string };
    const paid = await db.transaction(async (tx) => {
      const result = await payClaim(tx, disputeId);
      if (result) {
        const out = new Outbox();
        const [d] = await tx.select({ bookingId: disputes.bookingId }).from(disputes).where(eq(disputes.id, disputeId));
        out.add(
          result.notices.map((n) => n.userId),
          'dispute.changed',
          { booking_id: d!.bookingId },
        );
        await notify(tx, out, result.notices);
        await out.flush(tx);
      }
      return result;
    });
    if (paid) return;
    const [still] = await db
      .select({ id: disputes.id })
      .from(disputes)
      .where(and(eq(disputes.id, disputeId), eq(disputes.decision, 'approve'), isNull(disputes.paidAt)));
    if (still) return { deferUntil: new Date(Date.now() + CLAIM_RETRY_MS) };
  };

  /** The card part of a paid claim, sent once (the provider's idempotency key), then posted as sent. */
  const refundJob: JobHandler = async (payload) => {
    const { disputeId } = payload as { disputeId: string };
    const [d] = await db
      .select({
        paymentId: disputes.paymentId,
        bookingId: disputes.bookingId,
        refundCents: disputes.refundCents,
        chargeId: payments.providerChargeId,
      })
      .from(disputes)
      .innerJoin(payments, eq(payments.id, disputes.paymentId))
      .where(eq(disputes.id, disputeId));
    if (!d?.chargeId || !d.refundCents) return;
    await provider.refund({
      chargeId: d.chargeId,
      amountCents: d.refundCents,
      idempotencyKey: claimRefundKey(d.paymentId),
    });
    await db.transaction((tx) =>
      post(tx, {
        kind: 'refund_sent',
        key: `${claimRefundKey(d.paymentId)}_sent`,
        paymentId: d.paymentId,
        bookingId: d.bookingId,
        lines: [
          { account: 'refunds_pending', amount: -d.refundCents! },
          { account: 'outside', amount: d.refundCents! },
        ],
      }),
    );
  };

  return { claimJob, refundJob };
}
