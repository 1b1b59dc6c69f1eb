import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { CHARGEBACK_FINAL_STATUSES, CHARGEBACK_STATUSES } from '../../../shared/payments';
import { oneOf } from './checks';

export { CHARGEBACK_FINAL_STATUSES, CHARGEBACK_STATUSES };

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
  // Service fees earned on completed deliveries (what the Delivery Guarantee's reserve does not take).
  'fees',
  // The Delivery Guarantee's reserve (issue 36): a share of every service fee, paying approved claims. Never negative.
  'guarantee_reserve',
  // RuralRoute credit of one person (an approved guarantee claim beyond what they paid): pays before the card.
  'credit',
  // Refunds decided and owed to a card, until the provider has sent them.
  'refunds_pending',
  // Payouts decided and owed to a driver's bank account, until the provider has sent them.
  'payouts_pending',
  // What card disputes (chargebacks) cost the platform (issue 36): the amounts and fees the bank withdrew, less what
  // it gave back and what held money covered. Negative by what was lost: with 'outside', the only account that may be.
  'chargeback_losses',
  // What members paid for plans (issue 38), less the unused time a switch credited back.
  'plan_revenue',
  // What Community rewards cost the platform (issue 38): negative by the credits given, as 'outside' may be.
  'rewards',
] as const;

/** The accounts whose balance may go below zero: the world outside, and the platform's chargeback losses. */
export const UNGUARDED_ACCOUNT_KINDS = ['outside', 'chargeback_losses', 'rewards'] as const;

export const LEDGER_TRANSACTION_KINDS = [
  'hold',
  'release',
  'refund',
  'partial_refund',
  'refund_sent',
  'payout',
  'payout_sent',
  // An approved Delivery Guarantee claim paid from the reserve (issue 36): to the card, any rest as credit.
  'guarantee_claim',
  // A card dispute's money (issue 36): the bank withdrawing the amount and its fee, or giving it back (won).
  'chargeback_withdrawn',
  'chargeback_reinstated',
  // A lost card dispute's held money covering the loss (the card part; the credit part goes back as credit).
  'chargeback_recovered',
  // The platform adding its own money to the Delivery Guarantee's reserve (an admin, on the payments page).
  'reserve_funding',
  // Paid plans (issue 38): a plan's charge (card and credit to plan revenue), a switch's unused time credited back
  // (plan revenue to the member's credit), a Community reward (the platform's rewards budget to the member's credit).
  'plan_charge',
  'plan_proration',
  'reward',
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
    check(
      'ledger_accounts_only_outside_negative',
      sql`not ${t.allowNegative} or ${oneOf(t.kind, UNGUARDED_ACCOUNT_KINDS)}`,
    ),
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
    /**
     * What the requester's RuralRoute credit paid of the total (issue 36): spent before the card, which was charged
     * only the rest (nothing when the credit covered it all). A refund gives the credit part back as credit first.
     */
    creditCents: bigint('credit_cents', { mode: 'number' }).notNull().default(0),
    /** What was given back (the whole total, or the policy's share after pickup): as credit up to creditCents, the rest to the card. */
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
    // Every lookup of a booking's payment (its page, release, a cancellation's refund): the pool plans generic plans,
    // where a state given as a parameter cannot pick the partial index above (db/pool.ts), so without this one each
    // was a scan of every payment (measured: 11 ms a release with 20,000 payments).
    index('payments_booking_idx').on(t.bookingId),
    // A card dispute's payment, found by the provider's charge id (chargebacks.ts): one probe, not a scan.
    index('payments_provider_charge_idx')
      .on(t.provider, t.providerChargeId)
      .where(sql`${t.providerChargeId} is not null`),
    index('payments_requester_created_idx').on(t.requesterId, t.createdAt, t.id),
    index('payments_driver_created_idx').on(t.driverId, t.createdAt, t.id),
    check('payments_state_check', oneOf(t.state, PAYMENT_ROW_STATES)),
    check('payments_currency_check', sql`${t.currency} = 'usd'`),
    check('payments_amounts', sql`${t.compensationCents} > 0 and ${t.feeCents} >= 0`),
    check(
      'payments_credit_within_total',
      sql`${t.creditCents} >= 0 and ${t.creditCents} <= ${t.compensationCents} + ${t.feeCents}`,
    ),
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

// ─── Payouts (issue 35): where a driver's earnings go, and each payout made ───────────────────────────────────────

export const PAYOUT_ACCOUNT_STATES = ['pending', 'active'] as const;

/** A driver's payout account at the provider: 'pending' while Stripe's onboarding is unfinished, then 'active'. */
export const payoutAccounts = pgTable(
  'payout_accounts',
  {
    userId: uuid('user_id').primaryKey(),
    provider: text('provider').notNull(),
    providerAccountId: text('provider_account_id').notNull(),
    status: text('status').notNull(),
    /** The bank account's last four digits, when the provider tells them. */
    last4: text('last4'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('payout_accounts_provider_account_idx').on(t.provider, t.providerAccountId),
    check('payout_accounts_status_check', oneOf(t.status, PAYOUT_ACCOUNT_STATES)),
  ],
);

export const PAYOUT_STATES = ['pending', 'paid'] as const;

/**
 * One payout of a driver's Available balance: decided in a transaction with its ledger move (driver ->
 * payouts_pending), sent by a job through the provider under the key payout:<id>, then 'paid' with the move
 * payouts_pending -> outside.
 */
export const payouts = pgTable(
  'payouts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    state: text('state').notNull().default('pending'),
    provider: text('provider').notNull(),
    providerTransferId: text('provider_transfer_id'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    paidAt: timestamp('paid_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [
    index('payouts_user_created_idx').on(t.userId, t.createdAt, t.id),
    check('payouts_state_check', oneOf(t.state, PAYOUT_STATES)),
    check('payouts_amount_positive', sql`${t.amountCents} > 0`),
    check('payouts_paid_at', sql`(${t.paidAt} is not null) = (${t.state} = 'paid')`),
  ],
);

// ─── Provider webhooks (Stripe): each event stored once by its id, applied by a job ──────────────────────────────

export const paymentWebhookEvents = pgTable('payment_webhook_events', {
  /** The provider's event id: a second delivery of the same event is recognised and has no effect. */
  id: text('id').primaryKey(),
  provider: text('provider').notNull(),
  type: text('type').notNull(),
  payload: jsonb('payload').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  processedAt: timestamp('processed_at', { withTimezone: true, precision: 3 }),
});

// ─── Chargebacks: card disputes the provider reports (issue 36, decision 032) ───────────────────────────────────

/**
 * One card dispute, as the provider's events told it (charge.dispute.created, .funds_withdrawn, .closed, applied once
 * each and in any order). Its money is in the ledger (chargeback_* transactions keyed by the provider's balance
 * transaction); `lost_cents` is their sum as posted, kept here for the admin page.
 */
export const chargebacks = pgTable(
  'chargebacks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    provider: text('provider').notNull(),
    /** The provider's dispute id ('dp_...'): every event of one dispute finds the same row. */
    providerDisputeId: text('provider_dispute_id').notNull(),
    paymentId: uuid('payment_id').notNull(),
    bookingId: uuid('booking_id').notNull(),
    status: text('status').notNull(),
    /** The bank's reason, as the provider names it ('fraudulent', 'product_not_received', ...). */
    reason: text('reason').notNull(),
    /** What the cardholder disputes. */
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    /** The dispute fees withdrawn so far. */
    feeCents: bigint('fee_cents', { mode: 'number' }).notNull().default(0),
    /** What the platform has lost on it so far: withdrawn (amount and fee) less reinstated and less held money recovered. */
    lostCents: bigint('lost_cents', { mode: 'number' }).notNull().default(0),
    openedAt: timestamp('opened_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    closedAt: timestamp('closed_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [
    uniqueIndex('chargebacks_provider_dispute_idx').on(t.provider, t.providerDisputeId),
    index('chargebacks_payment_idx').on(t.paymentId),
    index('chargebacks_opened_idx').on(t.openedAt, t.id),
    check('chargebacks_status_check', oneOf(t.status, CHARGEBACK_STATUSES)),
    check('chargebacks_amounts', sql`${t.amountCents} > 0 and ${t.feeCents} >= 0`),
    check(
      'chargebacks_closed_when_final',
      sql`(${t.closedAt} is not null) = ${oneOf(t.status, CHARGEBACK_FINAL_STATUSES)}`,
    ),
  ],
);

// ─── Reconciliation: the ledger compared with the provider's records ─────────────────────────────────────────────

export const paymentReconciliations = pgTable(
  'payment_reconciliations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** 'daily' (the scheduled run) or 'admin' (asked for on the admin payments page). */
    trigger: text('trigger').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true, precision: 3 }),
    /** How many payments and payouts were compared. */
    checked: bigint('checked', { mode: 'number' }).notNull().default(0),
    /** Each difference found: { kind, id, ledger, provider, detail }. Empty when everything matches. */
    differences: jsonb('differences')
      .notNull()
      .default(sql`'[]'::jsonb`),
    repaired: bigint('repaired', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    index('payment_reconciliations_started_idx').on(t.startedAt),
    check('payment_reconciliations_trigger_check', oneOf(t.trigger, ['daily', 'admin'])),
  ],
);

// ─── The test provider's payout side: accounts (a test routing and account number) and transfers ─────────────────

/**
 * The test provider's saved cards (issue 38: what a plan's renewals charge). Never the number: its brand, last four
 * digits and how the test card behaves when charged later ('succeeds', or 'declines' for 4000 0000 0000 0341, which
 * saves but fails every charge, as Stripe's test card does).
 */
export const testProviderPaymentMethods = pgTable('test_provider_payment_methods', {
  id: text('id').primaryKey(),
  userId: uuid('user_id').notNull(),
  cardBrand: text('card_brand').notNull(),
  cardLast4: text('card_last4').notNull(),
  outcome: text('outcome').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
});

export const testProviderAccounts = pgTable('test_provider_accounts', {
  id: text('id').primaryKey(),
  userId: uuid('user_id').notNull(),
  routingNumber: text('routing_number').notNull(),
  accountLast4: text('account_last4').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
});

export const testProviderTransfers = pgTable(
  'test_provider_transfers',
  {
    id: text('id').primaryKey(),
    idempotencyKey: text('idempotency_key').notNull(),
    accountId: text('account_id')
      .notNull()
      .references(() => testProviderAccounts.id),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    metadata: jsonb('metadata').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('test_provider_transfers_key_idx').on(t.idempotencyKey),
    check('test_provider_transfers_amount', sql`${t.amountCents} > 0`),
  ],
);
