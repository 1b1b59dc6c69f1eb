import { and, eq, gte, inArray, sql } from 'drizzle-orm';
import type { Reconciliation } from '../../shared/payments';
import type { Db } from '../db/client';
import { rowsOf } from '../db/result-rows';
import { jobs, paymentReconciliations, payments, payouts } from '../db/schema';
import { enqueue, type JobHandler } from '../jobs';
import type { PaymentFlow } from './flow';
import type { PaymentsProvider, ProviderChargeRecord, ProviderTransferRecord } from './provider';
import { reconciliationOf } from './reader';

/** The daily run's job: enqueued by every instance each hour under the day's key, so it runs once a day. */
export const RECONCILE_JOB = 'payments_reconcile';
/** How far back each run compares (the provider's lists are read from then on). */
export const RECONCILE_WINDOW_DAYS = 90;

type Difference = Reconciliation['differences'][number];

/**
 * Reconciliation (docs/payments.md): the ledger and our payment rows compared with the provider's own records. It
 * first repairs what a crash can leave (a payment still 'pending' after a charge: repairStale), then checks, for
 * every payment and payout of the window:
 *   - each charge the provider made belongs to a payment we hold, released or refunded, for the same amount (or to
 *     one we voided, and then it is refunded in full);
 *   - what the provider refunded equals what the ledger says was sent back (refund_sent), once the refund job ran;
 *   - each transfer to a driver belongs to a paid payout of the same amount, and each paid payout has its transfer.
 * Every difference is recorded with the run; nothing is changed to make them agree: an admin looks.
 */
export function createReconciliation(db: Db, provider: PaymentsProvider, flow: PaymentFlow) {
  async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
    const all: T[] = [];
    for await (const item of items) all.push(item);
    return all;
  }

  /** Jobs still to run for these keys (a refund or void decided but not yet sent is not a difference). */
  async function pendingJobs(keys: string[]): Promise<Set<string>> {
    if (!keys.length) return new Set();
    const rows = await db
      .select({ key: jobs.dedupeKey })
      .from(jobs)
      .where(and(inArray(jobs.dedupeKey, keys), eq(jobs.status, 'queued')));
    return new Set(rows.map((r) => r.key!));
  }

  async function compare(now: Date): Promise<{ checked: number; differences: Difference[] }> {
    const since = new Date(now.getTime() - RECONCILE_WINDOW_DAYS * 86_400_000);
    const differences: Difference[] = [];
    const charges = (await collect(provider.listCharges(since))).filter((c) => c.status === 'succeeded');
    const ours = await db
      .select()
      .from(payments)
      .where(and(gte(payments.createdAt, since), eq(payments.provider, provider.name)));
    const sent = rowsOf<{ payment_id: string; amount: string }>(
      await db.execute(sql`
        select t.payment_id, sum(e.amount)::text as amount
        from ledger_transactions t join ledger_entries e on e.transaction_id = t.id
        join ledger_accounts a on a.id = e.account_id
        where t.kind = 'refund_sent' and a.kind = 'outside' and t.created_at >= ${since}
        group by t.payment_id`),
    );
    const sentBy = new Map(sent.map((r) => [r.payment_id, Number(r.amount)]));
    const waiting = await pendingJobs(
      ours.flatMap((p) => [`payment:${p.id}:refund`, `payment:${p.id}:void`, `payment:${p.id}:claim_refund`]),
    );
    const byPayment = new Map<string, ProviderChargeRecord>();
    for (const c of charges) if (c.paymentId) byPayment.set(c.paymentId, c);
    const known = new Set(ours.map((p) => p.id));

    for (const p of ours) {
      const charge = byPayment.get(p.id);
      // What the card was charged: the total less what RuralRoute credit paid (nothing when it paid all).
      const total = Number(p.compensationCents) + Number(p.feeCents) - Number(p.creditCents);
      const diff = (kind: string, ledger: number, atProvider: number, detail: string) =>
        differences.push({ kind, id: p.id, ledger, provider: atProvider, detail });
      switch (p.state) {
        case 'pending':
        case 'failed':
          if (charge && p.state === 'failed')
            diff('charge_without_payment', 0, charge.amountCents, 'The provider charged a payment that failed.');
          break;
        case 'voided':
          if (charge && charge.refundedCents !== charge.amountCents && !waiting.has(`payment:${p.id}:void`))
            diff(
              'void_not_refunded',
              0,
              charge.amountCents - charge.refundedCents,
              'A voided charge is not refunded in full.',
            );
          break;
        default: {
          if (!charge && total === 0) break;
          if (!charge) {
            diff('held_without_charge', total, 0, 'The ledger holds money the provider has no charge for.');
            break;
          }
          if (charge.amountCents !== total)
            diff('amount_mismatch', total, charge.amountCents, 'The charge and the payment differ.');
          const refundedHere = sentBy.get(p.id) ?? 0;
          const refundWaits = waiting.has(`payment:${p.id}:refund`) || waiting.has(`payment:${p.id}:claim_refund`);
          if (!refundWaits && charge.refundedCents !== refundedHere)
            diff('refund_mismatch', refundedHere, charge.refundedCents, 'What was refunded differs.');
        }
      }
    }
    for (const c of charges)
      if (!c.paymentId || !known.has(c.paymentId))
        differences.push({
          kind: 'unknown_charge',
          id: c.chargeId,
          ledger: 0,
          provider: c.amountCents,
          detail: 'The provider has a charge no payment of ours knows.',
        });

    const transfers: ProviderTransferRecord[] = await collect(provider.listTransfers(since));
    const paidOut = await db
      .select()
      .from(payouts)
      .where(and(gte(payouts.createdAt, since), eq(payouts.provider, provider.name)));
    const transferOf = new Map(transfers.filter((t) => t.payoutId).map((t) => [t.payoutId!, t]));
    const payoutIds = new Set(paidOut.map((p) => p.id));
    for (const p of paidOut) {
      const t = transferOf.get(p.id);
      if (p.state === 'paid' && !t)
        differences.push({
          kind: 'payout_without_transfer',
          id: p.id,
          ledger: Number(p.amountCents),
          provider: 0,
          detail: 'A paid payout has no transfer.',
        });
      else if (t && t.amountCents !== Number(p.amountCents))
        differences.push({
          kind: 'payout_mismatch',
          id: p.id,
          ledger: Number(p.amountCents),
          provider: t.amountCents,
          detail: 'The transfer and the payout differ.',
        });
    }
    for (const t of transfers)
      if (!t.payoutId || !payoutIds.has(t.payoutId))
        differences.push({
          kind: 'unknown_transfer',
          id: t.transferId,
          ledger: 0,
          provider: t.amountCents,
          detail: 'The provider has a transfer no payout of ours knows.',
        });
    return { checked: ours.length + paidOut.length, differences };
  }

  /** One run: repairs first, then the comparison; recorded in payment_reconciliations and returned. */
  async function run(trigger: 'daily' | 'admin', now: Date = new Date()): Promise<Reconciliation> {
    const [row] = await db
      .insert(paymentReconciliations)
      .values({ trigger })
      .returning({ id: paymentReconciliations.id });
    const repaired = await flow.repairStale(now);
    const { checked, differences } = await compare(now);
    const [done] = await db
      .update(paymentReconciliations)
      .set({ finishedAt: sql`clock_timestamp()`, checked, repaired, differences })
      .where(eq(paymentReconciliations.id, row!.id))
      .returning();
    if (differences.length)
      console.warn(
        `[payments] reconciliation found ${differences.length} difference(s); see /dashboard/admin/payments`,
      );
    return reconciliationOf(done!);
  }

  /** Every instance calls this each hour: the day's key lets one run a day through. */
  async function scheduleDaily(now: Date = new Date()): Promise<void> {
    await db.transaction((tx) =>
      enqueue(tx, { kind: RECONCILE_JOB, payload: {}, dedupeKey: `reconcile:${now.toISOString().slice(0, 10)}` }),
    );
  }

  const job: JobHandler = async () => {
    await run('daily');
  };

  return { run, scheduleDaily, job };
}

export type PaymentReconciliation = ReturnType<typeof createReconciliation>;
