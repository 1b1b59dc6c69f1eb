import { aliasedTable, and, desc, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Page } from '../../shared/marketplace';
import {
  PAYMENT_STATES,
  type AdminPaymentItem,
  type AdminPayments,
  type EarnedItem,
  type EarningsSummary,
  type LedgerTrail,
  type PaidItem,
  type PaymentState,
  type CreditBalance,
  type Receipt,
  type Reconciliation,
} from '../../shared/payments';
import { cardLabel } from '../../shared/notifications';
import { notFound } from '../core/domain-error';
import type { Db } from '../db/client';
import { cursorInstant, cursorUuid, keysetList, type PageRequest } from '../db/keyset';
import { rowsOf } from '../db/result-rows';
import {
  ledgerAccounts,
  ledgerEntries,
  ledgerTransactions,
  paymentReconciliations,
  payments,
  payouts,
  profiles,
} from '../db/schema';
import { chargebackShown } from './chargeback-shown';
import { accountKey, creditBalance } from './ledger';
import type { PayoutState } from './payouts';

export const RECEIPT_NOT_FOUND = 'This payment was not found.';

const SHOWN_STATES = sql.raw(PAYMENT_STATES.map((s) => `'${s}'`).join(', '));
const listCursor = z.tuple([cursorInstant, cursorUuid]);
const driverProfile = aliasedTable(profiles, 'driver_profile');
const requesterProfile = aliasedTable(profiles, 'requester_profile');

const columns = {
  id: payments.id,
  bookingId: payments.bookingId,
  title: payments.title,
  compensationCents: payments.compensationCents,
  feeCents: payments.feeCents,
  creditCents: payments.creditCents,
  refundedCents: payments.refundedCents,
  state: payments.state,
  createdAt: payments.createdAt,
  heldAt: payments.heldAt,
  settledAt: payments.settledAt,
  chargeback: chargebackShown(),
};
interface Row {
  id: string;
  bookingId: string;
  title: string;
  compensationCents: number;
  feeCents: number;
  creditCents: number;
  refundedCents: number;
  state: string;
  createdAt: Date;
  heldAt: Date | null;
  settledAt: Date | null;
  chargeback: boolean;
}

/** What the driver received of a payment: everything once released, what they kept after a late cancellation. */
export function driverReceived(p: {
  state: string;
  compensationCents: number;
  feeCents: number;
  refundedCents: number;
}) {
  const c = Number(p.compensationCents);
  if (p.state === 'released') return c;
  if (p.state === 'partly_refunded') return c + Number(p.feeCents) - Number(p.refundedCents);
  return 0;
}

/**
 * Whether the driver's own views (Earned, their receipt) read 'Chargeback': only while a card dispute holds the money
 * or after it took the held money back. Money released to them stays theirs, so it reads 'Released' for them.
 */
const driverSeesChargeback = (p: { state: string; chargeback: boolean }) =>
  p.chargeback && (p.state === 'held' || p.state === 'refunded');

const paidItem = (r: Row): PaidItem => ({
  id: r.id,
  booking_id: r.bookingId,
  title: r.title,
  total_cents: Number(r.compensationCents) + Number(r.feeCents),
  credit_cents: Number(r.creditCents),
  refunded_cents: Number(r.refundedCents),
  state: r.state as PaymentState,
  chargeback: r.chargeback,
  paid_at: (r.heldAt ?? r.createdAt).toISOString(),
});

/**
 * What people and admins read about payments: 'Paid' and 'Earned' (newest first, keyset over the payments'
 * (requester|driver, created_at, id) indexes), a receipt, and the admin page's totals and ledger trails. Every
 * person's query is bounded by their id: another person's payment does not exist for them.
 */
export function createPaymentReader(db: Db, testMode: boolean) {
  const list = (name: string, who: typeof payments.requesterId | typeof payments.driverId) =>
    keysetList({
      name,
      from: () => db.select(columns).from(payments).$dynamic(),
      filter: sql`${who} = ${sql.placeholder('userId')} and ${payments.state} in (${SHOWN_STATES})`,
      after: sql`(${payments.createdAt}, ${payments.id}) < (${sql.placeholder('at')}::timestamptz, ${sql.placeholder('id')}::uuid)`,
      orderBy: [desc(payments.createdAt), desc(payments.id)],
      cursor: listCursor,
      bind: ([at, id]) => ({ at, id }),
      sortKey: (r) => [r.createdAt.toISOString(), r.id],
    });
  const paidList = list('payments_paid', payments.requesterId);
  const earnedList = list('payments_earned', payments.driverId);
  const allList = keysetList({
    name: 'payments_admin',
    from: () =>
      db
        .select({ ...columns, driverName: driverProfile.fullName, requesterName: requesterProfile.fullName })
        .from(payments)
        .leftJoin(driverProfile, eq(driverProfile.userId, payments.driverId))
        .leftJoin(requesterProfile, eq(requesterProfile.userId, payments.requesterId))
        .$dynamic(),
    filter: sql`${payments.state} in (${SHOWN_STATES})`,
    after: sql`(${payments.createdAt}, ${payments.id}) < (${sql.placeholder('at')}::timestamptz, ${sql.placeholder('id')}::uuid)`,
    orderBy: [desc(payments.createdAt), desc(payments.id)],
    cursor: listCursor,
    bind: ([at, id]) => ({ at, id }),
    sortKey: (r) => [r.createdAt.toISOString(), r.id],
  });

  const paid = (userId: string, page: PageRequest): Promise<Page<PaidItem>> => paidList({ userId }, page, paidItem);

  const earned = (userId: string, page: PageRequest): Promise<Page<EarnedItem>> =>
    earnedList({ userId }, page, (r) => ({
      id: r.id,
      booking_id: r.bookingId,
      title: r.title,
      amount_cents: r.state === 'held' ? Number(r.compensationCents) : driverReceived(r),
      state: r.state as PaymentState,
      chargeback: driverSeesChargeback(r),
      at: (r.settledAt ?? r.heldAt ?? r.createdAt).toISOString(),
    }));

  async function earnings(userId: string, payoutState: PayoutState): Promise<EarningsSummary> {
    const [row] = rowsOf<{ in_progress: string; available: string; paid_out: string }>(
      await db.execute(sql`
        select
          (select coalesce(sum(${payments.compensationCents}), 0) from ${payments}
            where ${payments.driverId} = ${userId} and ${payments.state} = 'held')::text as in_progress,
          (select coalesce(sum(${ledgerAccounts.balance}), 0) from ${ledgerAccounts}
            where ${ledgerAccounts.key} = ${accountKey({ driver: userId })})::text as available,
          (select coalesce(sum(${payouts.amountCents}), 0) from ${payouts}
            where ${payouts.userId} = ${userId})::text as paid_out`),
    );
    return {
      in_progress_cents: Number(row?.in_progress ?? 0),
      available_cents: Number(row?.available ?? 0),
      paid_out_cents: Number(row?.paid_out ?? 0),
      payouts: payoutState,
      test_mode: testMode,
    };
  }

  async function receipt(userId: string, paymentId: string): Promise<Receipt> {
    const [p] = await db
      .select({
        ...columns,
        driverId: payments.driverId,
        requesterId: payments.requesterId,
        provider: payments.provider,
        cardBrand: payments.cardBrand,
        cardLast4: payments.cardLast4,
        driverName: driverProfile.fullName,
        requesterName: requesterProfile.fullName,
      })
      .from(payments)
      .leftJoin(driverProfile, eq(driverProfile.userId, payments.driverId))
      .leftJoin(requesterProfile, eq(requesterProfile.userId, payments.requesterId))
      .where(
        and(
          eq(payments.id, paymentId),
          inArray(payments.state, [...PAYMENT_STATES]),
          sql`(${payments.requesterId} = ${userId} or ${payments.driverId} = ${userId})`,
        ),
      );
    if (!p) throw notFound(RECEIPT_NOT_FOUND);
    const mine = p.requesterId === userId;
    const compensation = Number(p.compensationCents);
    const fee = Number(p.feeCents);
    return {
      id: p.id,
      role: mine ? 'requester' : 'driver',
      booking_id: p.bookingId,
      title: p.title,
      driver_name: p.driverName ?? 'Deleted user',
      requester_name: p.requesterName ?? 'Deleted user',
      compensation_cents: compensation,
      fee_cents: mine ? fee : null,
      total_cents: mine ? compensation + fee : null,
      card: mine && p.cardLast4 ? cardLabel(p.cardBrand, p.cardLast4) : null,
      credit_cents: mine ? Number(p.creditCents) : null,
      refunded_cents: Number(p.refundedCents),
      driver_received_cents: driverReceived(p),
      state: p.state as PaymentState,
      chargeback: mine ? p.chargeback : driverSeesChargeback(p),
      paid_at: (p.heldAt ?? p.createdAt).toISOString(),
      settled_at: p.settledAt?.toISOString() ?? null,
      test_mode: p.provider === 'test',
    };
  }

  async function lastReconciliation(): Promise<Reconciliation | null> {
    const [r] = await db.select().from(paymentReconciliations).orderBy(desc(paymentReconciliations.startedAt)).limit(1);
    return r ? reconciliationOf(r) : null;
  }

  async function adminOverview(): Promise<AdminPayments> {
    const [t] = rowsOf<Record<string, string>>(
      await db.execute(sql`
        select
          (select coalesce(sum(balance), 0) from ${ledgerAccounts} where kind = 'held')::text as held,
          (select coalesce(sum(e.amount), 0) from ${ledgerEntries} e join ${ledgerAccounts} a on a.id = e.account_id
            where a.kind = 'driver' and e.amount > 0)::text as released,
          (select coalesce(sum(e.amount), 0) from ${ledgerEntries} e join ${ledgerAccounts} a on a.id = e.account_id
            where a.kind = 'refunds_pending' and e.amount > 0)::text as refunded,
          (select coalesce(sum(balance), 0) from ${ledgerAccounts} where kind = 'fees')::text as fees,
          (select coalesce(sum(balance), 0) from ${ledgerAccounts} where kind = 'guarantee_reserve')::text as reserve,
          (select coalesce(sum(balance), 0) from ${ledgerAccounts} where kind = 'driver')::text as available,
          (select coalesce(sum(${payouts.amountCents}), 0) from ${payouts} where ${payouts.state} = 'paid')::text as paid_out,
          (select coalesce(sum(balance), 0) from ${ledgerAccounts} where kind = 'refunds_pending')::text as refunds_pending,
          (select coalesce(sum(balance), 0) from ${ledgerAccounts} where kind = 'payouts_pending')::text as payouts_pending,
          (select coalesce(-sum(balance), 0) from ${ledgerAccounts} where kind = 'chargeback_losses')::text as chargeback_losses`),
    );
    const n = (k: string) => Number(t?.[k] ?? 0);
    return {
      totals: {
        held_cents: n('held'),
        released_cents: n('released'),
        refunded_cents: n('refunded'),
        fees_cents: n('fees'),
        guarantee_reserve_cents: n('reserve'),
        available_cents: n('available'),
        paid_out_cents: n('paid_out'),
        refunds_pending_cents: n('refunds_pending'),
        payouts_pending_cents: n('payouts_pending'),
        chargeback_losses_cents: n('chargeback_losses'),
      },
      last_reconciliation: await lastReconciliation(),
      test_mode: testMode,
    };
  }

  const adminList = (page: PageRequest): Promise<Page<AdminPaymentItem>> =>
    allList({}, page, (r) => ({
      ...paidItem(r),
      driver_name: r.driverName ?? 'Deleted user',
      requester_name: r.requesterName ?? 'Deleted user',
      compensation_cents: Number(r.compensationCents),
      fee_cents: Number(r.feeCents),
    }));

  /** A payment's ledger trail (admins): every transaction of it, oldest first, with its entries. */
  async function trail(paymentId: string): Promise<LedgerTrail> {
    const rows = await db
      .select({
        id: ledgerTransactions.id,
        kind: ledgerTransactions.kind,
        at: ledgerTransactions.createdAt,
        key: ledgerTransactions.idempotencyKey,
        account: ledgerAccounts.key,
        amount: ledgerEntries.amount,
      })
      .from(ledgerTransactions)
      .innerJoin(ledgerEntries, eq(ledgerEntries.transactionId, ledgerTransactions.id))
      .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
      .where(eq(ledgerTransactions.paymentId, paymentId))
      .orderBy(ledgerTransactions.id, ledgerEntries.id);
    const byId = new Map<string, LedgerTrail['transactions'][number]>();
    for (const r of rows) {
      const id = String(r.id);
      let t = byId.get(id);
      if (!t) byId.set(id, (t = { id, kind: r.kind, at: r.at.toISOString(), key: r.key, entries: [] }));
      t.entries.push({ account: r.account, amount_cents: Number(r.amount) });
    }
    if (!byId.size) {
      const [exists] = await db.select({ id: payments.id }).from(payments).where(eq(payments.id, paymentId));
      if (!exists) throw notFound(RECEIPT_NOT_FOUND);
    }
    return { transactions: [...byId.values()] };
  }

  /** My RuralRoute credit: it pays my next deliveries before the card. */
  async function credit(userId: string): Promise<CreditBalance> {
    return { balance_cents: await creditBalance(db, userId) };
  }

  return { paid, earned, earnings, receipt, credit, adminOverview, adminList, trail, lastReconciliation };
}

export type PaymentReader = ReturnType<typeof createPaymentReader>;

export function reconciliationOf(r: typeof paymentReconciliations.$inferSelect): Reconciliation {
  return {
    id: r.id,
    trigger: r.trigger as Reconciliation['trigger'],
    started_at: r.startedAt.toISOString(),
    finished_at: r.finishedAt?.toISOString() ?? null,
    checked: Number(r.checked),
    repaired: Number(r.repaired),
    differences: r.differences as Reconciliation['differences'],
  };
}
