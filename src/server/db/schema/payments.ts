import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { oneOf } from './checks';

// ─── Payments and the ledger (issue 35, docs/payments.md, decision 029) ─────────────────────────────────────────
// Money records outlive what caused them: no foreign key to users, requests or bookings (an account deleted, a
// request withdrawn, the money that moved stays on record). Amounts are integer cents, USD.

export const LEDGER_ACCOUNT_KINDS = [
  // The world outside RuralRoute: cards pay in, refunds and payouts go back out. The one account that may be negative.
  'outside',
  // The money paid for one booking, held until the delivery is complete (one per payment).
  'held',
  // A driver's released earnings, waiting for a payout.
  'driver',
  // Service fees earned on completed deliveries.
  'fees',
  // Refunds decided and owed to a card, until the provider has sent them.
  'refunds_pending',
  // Payouts decided and owed to a driver's bank account, until the provider has sent them.
  'payouts_pending',
] as const;

export const LEDGER_TRANSACTION_KINDS = [
  'hold',
  'release',
  'refund',
  'partial_refund',
  'refund_sent',
  'payout',
  'payout_sent',
] as const;

/**
 * One balance. `balance` is kept by a trigger on ledger_entries (migration 0023): every entry adds its amount in the
 * statement that inserts it, and the CHECK refuses a guarded account below zero there and then.
 */
export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** 'outside', 'fees', 'held:<payment>', 'driver:<user>', ...: how the code finds an account. */
    key: text('key').notNull(),
    kind: text('kind').notNull(),
    userId: uuid('user_id'),
    paymentId: uuid('payment_id'),
    balance: bigint('balance', { mode: 'number' }).notNull().default(0),
    allowNegative: boolean('allow_negative').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('ledger_accounts_key_idx').on(t.key),
    index('ledger_accounts_user_idx')
      .on(t.userId)
      .where(sql`${t.userId} is not null`),
    check('ledger_accounts_kind_check', oneOf(t.kind, LEDGER_ACCOUNT_KINDS)),
    check('ledger_accounts_guarded', sql`${t.allowNegative} or ${t.balance} >= 0`),
    check('ledger_accounts_only_outside_negative', sql`not ${t.allowNegative} or ${t.kind} = 'outside'`),
  ],
);

/** One money move: its entries sum to zero (a deferred constraint trigger checks it at commit). */
export const ledgerTransactions = pgTable(
  'ledger_transactions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind').notNull(),
    paymentId: uuid('payment_id'),
    bookingId: uuid('booking_id'),
    /** Derived from the payment and the move ('payment:<id>:release'): the same move can never be posted twice. */
    idempotencyKey: text('idempotency_key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('ledger_transactions_idempotency_key_idx').on(t.idempotencyKey),
    index('ledger_transactions_payment_idx').on(t.paymentId),
    check('ledger_transactions_kind_check', oneOf(t.kind, LEDGER_TRANSACTION_KINDS)),
  ],
);

/** Append-only (a trigger refuses UPDATE and DELETE): the ledger's history is never rewritten. */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    transactionId: bigint('transaction_id', { mode: 'number' })
      .notNull()
      .references(() => ledgerTransactions.id),
    accountId: bigint('account_id', { mode: 'number' })
      .notNull()
      .references(() => ledgerAccounts.id),
    amount: bigint('amount', { mode: 'number' }).notNull(),
  },
  (t) => [
    index('ledger_entries_transaction_idx').on(t.transactionId),
    index('ledger_entries_account_idx').on(t.accountId, t.id),
    check('ledger_entries_amount_nonzero', sql`${t.amount} <> 0`),
  ],
);

export const PAYMENT_ROW_STATES = [
  // Claimed before the card is charged: at most one per request (the index below), so two choices cannot both pay.
  'pending',
  'failed',
  // Charged, but the booking could not be confirmed after all (someone else moved it): refunded at once.
  'voided',
  'held',
  'released',
  'refunded',
  'partly_refunded',
] as const;

/** What a requester paid for one booking: the compensation (the driver's) and the service fee (RuralRoute's). */
export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    bookingId: uuid('booking_id').notNull(),
    requestId: uuid('request_id').notNull(),
    requesterId: uuid('requester_id').notNull(),
    driverId: uuid('driver_id').notNull(),
    /** The request's title when paid: the receipt's line. */
    title: text('title').notNull(),
    compensationCents: bigint('compensation_cents', { mode: 'number' }).notNull(),
    feeCents: bigint('fee_cents', { mode: 'number' }).notNull(),
    currency: text('currency').notNull().default('usd'),
    state: text('state').notNull().default('pending'),
    provider: text('provider').notNull(),
    providerChargeId: text('provider_charge_id'),
    cardBrand: text('card_brand'),
    cardLast4: text('card_last4'),
    /** What went back to the card (the whole total, or the policy's share after pickup). */
    refundedCents: bigint('refunded_cents', { mode: 'number' }).notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    heldAt: timestamp('held_at', { withTimezone: true, precision: 3 }),
    /** When it was released, refunded or partly refunded. */
    settledAt: timestamp('settled_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [
    // One payment in flight or held per request: of ten 'Pay and confirm' at once, one charges.
    uniqueIndex('payments_request_live_idx')
      .on(t.requestId)
      .where(oneOf(t.state, ['pending', 'held'])),
    // A booking is paid for once in its life.
    uniqueIndex('payments_booking_paid_idx')
      .on(t.bookingId)
      .where(oneOf(t.state, ['pending', 'held', 'released', 'refunded', 'partly_refunded'])),
    index('payments_requester_created_idx').on(t.requesterId, t.createdAt, t.id),
    index('payments_driver_created_idx').on(t.driverId, t.createdAt, t.id),
    check('payments_state_check', oneOf(t.state, PAYMENT_ROW_STATES)),
    check('payments_currency_check', sql`${t.currency} = 'usd'`),
    check('payments_amounts', sql`${t.compensationCents} > 0 and ${t.feeCents} >= 0`),
    check(
      'payments_refund_within_total',
      sql`${t.refundedCents} >= 0 and ${t.refundedCents} <= ${t.compensationCents} + ${t.feeCents}`,
    ),
    check('payments_card_last4', sql`${t.cardLast4} ~ '^[0-9]{4}$'`),
    check(
      'payments_held_when_charged',
      sql`(${t.heldAt} is not null) = ${oneOf(t.state, ['held', 'released', 'refunded', 'partly_refunded'])}`,
    ),
  ],
);

// ─── The embedded test provider's own records (PAYMENTS_PROVIDER=test) ──────────────────────────────────────────
// What a real provider keeps on its side: charges and refunds, each stored once under the caller's idempotency key.

export const testProviderCharges = pgTable(
  'test_provider_charges',
  {
    id: text('id').primaryKey(),
    idempotencyKey: text('idempotency_key').notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    status: text('status').notNull(),
    cardBrand: text('card_brand').notNull(),
    cardLast4: text('card_last4').notNull(),
    refundedCents: bigint('refunded_cents', { mode: 'number' }).notNull().default(0),
    metadata: jsonb('metadata').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('test_provider_charges_key_idx').on(t.idempotencyKey),
    check('test_provider_charges_status_check', oneOf(t.status, ['succeeded', 'declined'])),
    check('test_provider_charges_refund_within', sql`${t.refundedCents} between 0 and ${t.amountCents}`),
  ],
);

export const testProviderRefunds = pgTable(
  'test_provider_refunds',
  {
    id: text('id').primaryKey(),
    idempotencyKey: text('idempotency_key').notNull(),
    chargeId: text('charge_id')
      .notNull()
      .references(() => testProviderCharges.id),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('test_provider_refunds_key_idx').on(t.idempotencyKey),
    check('test_provider_refunds_amount', sql`${t.amountCents} > 0`),
  ],
);
