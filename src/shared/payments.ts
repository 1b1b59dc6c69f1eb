import { z } from 'zod';
import { dollarsSchema } from './money';

/**
 * Paying for a delivery (issue 35, docs/payments.md): the card form of the embedded test provider and the messages
 * people see. Amounts are never computed here: the server answers them (src/shared/money.ts has the rules).
 */

export { TEST_MODE_NOTICE } from './money';
export const CARD_DECLINED_MESSAGE = 'Your card was declined. Try another card.';
export const CARD_NUMBER_MESSAGE = 'Enter a valid card number';
export const CARD_EXPIRY_MESSAGE = 'Enter the expiry date as MM/YY';
export const CARD_EXPIRED_MESSAGE = 'This card has expired';
export const CARD_CVC_MESSAGE = 'Enter the 3- or 4-digit CVC';
export const CARD_ZIP_MESSAGE = 'Enter a 5-digit ZIP code';

/** The test provider's cards: the first succeeds, the second is declined (as Stripe's test cards do). */
export const TEST_CARDS = {
  succeeds: '4242424242424242',
  declined: '4000000000000002',
  /** Saved for later charges (a plan's renewals), then declined by every one of them, as Stripe's test card is. */
  savedThenDeclined: '4000000000000341',
} as const;

/** The Luhn check every card number passes. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

const digitsOnly = (v: string) => v.replace(/[\s-]/g, '');

/** 'MM/YY' (or 'MM / YY', 'MM/YYYY') -> the last month it is valid in; null when not a date. */
export function parseExpiry(value: string): { month: number; year: number } | null {
  const m = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(value);
  if (!m) return null;
  const month = Number(m[1]);
  const year = m[2]!.length === 2 ? 2000 + Number(m[2]) : Number(m[2]);
  if (month < 1 || month > 12) return null;
  return { month, year };
}

/** The card form ('Card number', 'Expiry', 'CVC', 'ZIP'); `today` decides whether the card has expired. */
export function cardSchema(today: () => Date = () => new Date()) {
  return z.object({
    number: z
      .string({ error: CARD_NUMBER_MESSAGE })
      .transform(digitsOnly)
      .refine((v) => /^\d{12,19}$/.test(v) && luhnValid(v), CARD_NUMBER_MESSAGE),
    expiry: z
      .string({ error: CARD_EXPIRY_MESSAGE })
      .refine((v) => parseExpiry(v) !== null, CARD_EXPIRY_MESSAGE)
      .refine((v) => {
        const e = parseExpiry(v);
        if (!e) return true;
        const now = today();
        return e.year > now.getUTCFullYear() || (e.year === now.getUTCFullYear() && e.month >= now.getUTCMonth() + 1);
      }, CARD_EXPIRED_MESSAGE),
    cvc: z
      .string({ error: CARD_CVC_MESSAGE })
      .trim()
      .regex(/^\d{3,4}$/, CARD_CVC_MESSAGE),
    zip: z
      .string({ error: CARD_ZIP_MESSAGE })
      .trim()
      .regex(/^\d{5}$/, CARD_ZIP_MESSAGE),
  });
}
export type CardInput = z.input<ReturnType<typeof cardSchema>>;
export type Card = z.output<ReturnType<typeof cardSchema>>;

/** The payment refusals' toast texts (title / description), by the server's stable code. */
export const PAYMENT_ERRORS = {
  card_declined: { title: 'Error', message: CARD_DECLINED_MESSAGE },
  payment_required: { title: 'Error', message: 'Enter your card to pay for this delivery.' },
  payment_in_progress: {
    title: 'Error',
    message: 'A payment for this request is already in progress. Try again in a minute.',
  },
} as const;

export const PAYMENT_STATES = ['held', 'released', 'refunded', 'partly_refunded'] as const;
export const CHARGEBACK_LABEL = 'Chargeback';

/** A card dispute's statuses, as the provider names them (Stripe's); the last three are final. */
export const CHARGEBACK_STATUSES = [
  'warning_needs_response',
  'warning_under_review',
  'needs_response',
  'under_review',
  'warning_closed',
  'won',
  'lost',
] as const;
export const CHARGEBACK_FINAL_STATUSES = ['warning_closed', 'won', 'lost'] as const;
export type ChargebackStatus = (typeof CHARGEBACK_STATUSES)[number];

/** A card dispute's status as admins read it. */
export function chargebackStatusLabel(status: ChargebackStatus): string {
  switch (status) {
    case 'won':
      return 'Won';
    case 'lost':
      return 'Lost';
    case 'warning_closed':
      return 'Closed';
    case 'under_review':
    case 'warning_under_review':
      return 'Under review';
    default:
      return 'Needs response';
  }
}
export type PaymentState = (typeof PAYMENT_STATES)[number];

/**
 * A payment's state as people read it: 'Held', 'Released', 'Refunded {amount}', 'Partly refunded {amount}', or
 * 'Chargeback' while a card dispute the bank opened is open or was decided for the cardholder (issue 36).
 */
export function paymentStateLabel(state: PaymentState, refunded: string, chargeback = false): string {
  if (chargeback) return CHARGEBACK_LABEL;
  switch (state) {
    case 'held':
      return 'Held';
    case 'released':
      return 'Released';
    case 'refunded':
      return `Refunded ${refunded}`;
    case 'partly_refunded':
      return `Partly refunded ${refunded}`;
  }
}

/** A booking's payment as its two people see it (the booking page's 'Payment' section). */
export const bookingPaymentSchema = z.object({
  state: z.enum(PAYMENT_STATES),
  /** What the driver receives. */
  compensation_cents: z.number().int(),
  /** The requester's only (null for the driver): the fee, the total and the card. */
  fee_cents: z.number().int().nullable(),
  total_cents: z.number().int().nullable(),
  card_last4: z.string().nullable(),
  /** The requester's only: what their RuralRoute credit paid (null for the driver). */
  credit_cents: z.number().int().nullable(),
  /** What was given back (to the credit first, up to what it paid, then to the card). */
  refunded_cents: z.number().int(),
  held_at: z.string(),
  /** When it was released or refunded. */
  settled_at: z.string().nullable(),
  test_mode: z.boolean(),
  /** An open dispute holds the money (shown 'On hold'): nothing is released or refunded until it is decided. */
  on_hold: z.boolean(),
  /** A card dispute (chargeback) the bank opened, or decided for the cardholder: shown 'Chargeback'. */
  chargeback: z.boolean(),
  /** While held: what cancelling now, by the viewer, would refund the requester (the cancel dialog says it). */
  refund_if_cancelled_cents: z.number().int().nullable(),
});
export type BookingPayment = z.infer<typeof bookingPaymentSchema>;

export const PAYMENT_PROVIDERS = ['test', 'stripe'] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];

/**
 * How the pay dialog takes the card: the test provider's card fields, or Stripe's own card element (Stripe.js,
 * with the platform's publishable key) making a payment method that choose sends as `payment_method`.
 */
export interface PaymentCheckout {
  provider: PaymentProviderName;
  /** Stripe's publishable key (pk_...): public by design, it lets Stripe.js make payment methods. Null for 'test'. */
  publishable_key: string | null;
}

/** The embedded test provider's checkout: the card fields. */
export const TEST_CHECKOUT: PaymentCheckout = { provider: 'test', publishable_key: null };

/** What choosing a driver on a paid request costs, as the server computed it (the pay dialog shows it). */
export const paymentQuoteSchema = z.object({
  compensation_cents: z.number().int(),
  fee_cents: z.number().int(),
  total_cents: z.number().int(),
  /** The requester's RuralRoute credit that pays first (0 without), and what the card then pays. */
  credit_cents: z.number().int(),
  card_cents: z.number().int(),
  /** The requester's paid plan that waives the service fee ('Plus', 'Community'; issue 38), null without one. */
  fee_waived_by: z.string().nullable(),
  /** The embedded test provider runs: 'Test mode: no real money moves.' */
  test_mode: z.boolean(),
  /** Which card entry the pay dialog shows (PaymentCheckout). */
  provider: z.enum(PAYMENT_PROVIDERS),
  publishable_key: z.string().nullable(),
});
export type PaymentQuote = z.infer<typeof paymentQuoteSchema>;

// ─── Payouts (Settings > 'Payouts') ───────────────────────────────────────────────────────────────────────────────

export const ROUTING_NUMBER_MESSAGE = 'Enter a valid 9-digit routing number';
export const ACCOUNT_NUMBER_MESSAGE = 'Enter an account number of 4 to 17 digits';
/** The test provider's bank account (Stripe's test routing and account numbers). */
export const TEST_BANK = { routingNumber: '110000000', accountNumber: '000123456789' } as const;

/** An ABA routing number's checksum (3-7-1 weights). */
export function routingNumberValid(digits: string): boolean {
  if (!/^\d{9}$/.test(digits)) return false;
  const d = [...digits].map(Number);
  const sum = 3 * (d[0]! + d[3]! + d[6]!) + 7 * (d[1]! + d[4]! + d[7]!) + (d[2]! + d[5]! + d[8]!);
  return sum % 10 === 0;
}

/** Setting up payouts with the test provider: a routing and an account number. */
export const payoutBankSchema = z.object({
  routing_number: z
    .string({ error: ROUTING_NUMBER_MESSAGE })
    .transform(digitsOnly)
    .refine(routingNumberValid, ROUTING_NUMBER_MESSAGE),
  account_number: z
    .string({ error: ACCOUNT_NUMBER_MESSAGE })
    .transform(digitsOnly)
    .refine((v) => /^\d{4,17}$/.test(v), ACCOUNT_NUMBER_MESSAGE),
});
export type PayoutBankInput = z.input<typeof payoutBankSchema>;

/** Settings > 'Payouts': 'Not set up', a Stripe onboarding under way, or 'Payouts active'. */
export const PAYOUT_STATE_LABELS = {
  not_set_up: 'Not set up',
  pending: 'Setup not finished',
  active: 'Payouts active',
};
export const payoutSettingsSchema = z.object({
  state: z.enum(['not_set_up', 'pending', 'active']),
  /** The bank account's last four digits, once known. */
  last4: z.string().nullable(),
  /** Stripe: the page that finishes the setup (follow it at once). */
  onboarding_url: z.string().nullable(),
  /** 'test': the form asks for a test routing and account number; 'stripe': Stripe's own pages. */
  provider: z.enum(['test', 'stripe']),
  test_mode: z.boolean(),
});
export type PayoutSettings = z.infer<typeof payoutSettingsSchema>;

// ─── /dashboard/payments ──────────────────────────────────────────────────────────────────────────────────────────

/** 'Paid': one payment I made. */
export const paidItemSchema = z.object({
  id: z.string(),
  booking_id: z.string(),
  title: z.string(),
  total_cents: z.number().int(),
  /** What RuralRoute credit paid of the total. */
  credit_cents: z.number().int(),
  refunded_cents: z.number().int(),
  state: z.enum(PAYMENT_STATES),
  /** A card dispute of it is open, or was decided for the cardholder: shown 'Chargeback'. */
  chargeback: z.boolean(),
  paid_at: z.string(),
});
export type PaidItem = z.infer<typeof paidItemSchema>;

/** 'Earned': one delivery's earning (what I receive; 0 once refunded in full). */
export const earnedItemSchema = z.object({
  id: z.string(),
  booking_id: z.string(),
  title: z.string(),
  amount_cents: z.number().int(),
  state: z.enum(PAYMENT_STATES),
  chargeback: z.boolean(),
  at: z.string(),
});
export type EarnedItem = z.infer<typeof earnedItemSchema>;

/** 'Earned': the totals. */
export const earningsSummarySchema = z.object({
  /** Held for deliveries not yet complete. */
  in_progress_cents: z.number().int(),
  /** Released, waiting for a payout. */
  available_cents: z.number().int(),
  paid_out_cents: z.number().int(),
  payouts: payoutSettingsSchema.shape.state,
  test_mode: z.boolean(),
});
export type EarningsSummary = z.infer<typeof earningsSummarySchema>;

/** A payment's receipt, as its requester or its driver may see it. */
export const receiptSchema = z.object({
  id: z.string(),
  role: z.enum(['requester', 'driver']),
  booking_id: z.string(),
  title: z.string(),
  driver_name: z.string(),
  requester_name: z.string(),
  compensation_cents: z.number().int(),
  /** The requester's only (null for the driver). */
  fee_cents: z.number().int().nullable(),
  total_cents: z.number().int().nullable(),
  card: z.string().nullable(),
  /** The requester's only: what RuralRoute credit paid (null for the driver). */
  credit_cents: z.number().int().nullable(),
  refunded_cents: z.number().int(),
  /** What the driver received (the compensation, half of it after a cancellation past pickup, or 0). */
  driver_received_cents: z.number().int(),
  state: z.enum(PAYMENT_STATES),
  /** A card dispute of it is open, or was decided for the cardholder: shown 'Chargeback'. */
  chargeback: z.boolean(),
  paid_at: z.string(),
  settled_at: z.string().nullable(),
  test_mode: z.boolean(),
});
export type Receipt = z.infer<typeof receiptSchema>;

/** `GET /api/payments/credit`: my RuralRoute credit (an approved Delivery Guarantee claim's rest), spent first. */
export const creditBalanceSchema = z.object({ balance_cents: z.number().int() });
export type CreditBalance = z.infer<typeof creditBalanceSchema>;
export const CREDIT_LABEL = 'RuralRoute credit';

// ─── Admins: /dashboard/admin/payments ─────────────────────────────────────────────────────────────────────────────

export const adminPaymentTotalsSchema = z.object({
  held_cents: z.number().int(),
  released_cents: z.number().int(),
  refunded_cents: z.number().int(),
  fees_cents: z.number().int(),
  /** The Delivery Guarantee's reserve: its share of every released fee, less the claims it paid. */
  guarantee_reserve_cents: z.number().int(),
  available_cents: z.number().int(),
  paid_out_cents: z.number().int(),
  refunds_pending_cents: z.number().int(),
  payouts_pending_cents: z.number().int(),
  /** What card disputes cost the platform so far: withdrawn amounts and fees, less reinstated and recovered. */
  chargeback_losses_cents: z.number().int(),
});
export const reconciliationSchema = z.object({
  id: z.string(),
  trigger: z.enum(['daily', 'admin']),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  checked: z.number().int(),
  repaired: z.number().int(),
  differences: z.array(
    z.object({
      kind: z.string(),
      id: z.string(),
      ledger: z.number().int(),
      provider: z.number().int(),
      detail: z.string(),
    }),
  ),
});
export type Reconciliation = z.infer<typeof reconciliationSchema>;
export const adminPaymentsSchema = z.object({
  totals: adminPaymentTotalsSchema,
  last_reconciliation: reconciliationSchema.nullable(),
  test_mode: z.boolean(),
});
export type AdminPayments = z.infer<typeof adminPaymentsSchema>;
export const adminPaymentItemSchema = paidItemSchema.extend({
  driver_name: z.string(),
  requester_name: z.string(),
  compensation_cents: z.number().int(),
  fee_cents: z.number().int(),
});
export type AdminPaymentItem = z.infer<typeof adminPaymentItemSchema>;
/** A booking's ledger trail: each transaction with its entries. */
export const ledgerTrailSchema = z.object({
  transactions: z.array(
    z.object({
      id: z.string(),
      kind: z.string(),
      at: z.string(),
      key: z.string(),
      entries: z.array(z.object({ account: z.string(), amount_cents: z.number().int() })),
    }),
  ),
});
export type LedgerTrail = z.infer<typeof ledgerTrailSchema>;

/** One card dispute (chargeback), as the admin payments page lists it. */
export const adminChargebackSchema = z.object({
  id: z.string(),
  payment_id: z.string(),
  booking_id: z.string(),
  title: z.string(),
  requester_name: z.string(),
  driver_name: z.string(),
  status: z.enum(CHARGEBACK_STATUSES),
  /** The bank's reason as the provider names it ('fraudulent', 'product_not_received', ...). */
  reason: z.string(),
  amount_cents: z.number().int(),
  fee_cents: z.number().int(),
  /** What the platform has lost on it so far. */
  lost_cents: z.number().int(),
  opened_at: z.string(),
  closed_at: z.string().nullable(),
  payment_state: z.enum(PAYMENT_STATES),
  /** The booking's money is held by it until the bank decides. */
  on_hold: z.boolean(),
  /** What the driver was released of this payment: not taken back automatically (an admin decides). */
  driver_received_cents: z.number().int(),
  /** The driver's Available balance now (what has not been paid out yet). */
  driver_available_cents: z.number().int(),
  test_mode: z.boolean(),
});
export type AdminChargeback = z.infer<typeof adminChargebackSchema>;
/** The test provider's bank: raising a card dispute on a payment, and closing it won or lost (admin page). */
export const CHARGEBACK_OUTCOMES = ['won', 'lost'] as const;
export type ChargebackOutcome = (typeof CHARGEBACK_OUTCOMES)[number];
export const chargebackCloseSchema = z.object({
  outcome: z.enum(CHARGEBACK_OUTCOMES, { error: 'Choose won or lost' }),
});
export const TEST_CHARGEBACK_FEE_CENTS = 1500;

/** 'Add to the reserve' (admins): the platform's own money into the Delivery Guarantee's reserve, with a note. */
export const RESERVE_FUND_MAX_CENTS = 10_000_000;
export const RESERVE_AMOUNT_MESSAGE = 'Enter an amount between $1.00 and $100,000.00';
export const RESERVE_NOTE_MESSAGE = 'Write where the money comes from (at most 500 characters)';
export const reserveFundSchema = z.object({
  amount: dollarsSchema(RESERVE_AMOUNT_MESSAGE).refine(
    (c) => c >= 100 && c <= RESERVE_FUND_MAX_CENTS,
    RESERVE_AMOUNT_MESSAGE,
  ),
  note: z.string({ error: RESERVE_NOTE_MESSAGE }).trim().min(1, RESERVE_NOTE_MESSAGE).max(500, RESERVE_NOTE_MESSAGE),
});
export type ReserveFundInput = z.input<typeof reserveFundSchema>;
export const CHARGEBACK_ERRORS = {
  chargeback_open: { title: 'Error', message: 'This payment has a card dispute already.' },
  chargeback_not_possible: {
    title: 'Error',
    message: 'Only a card payment of the test provider can be disputed from here.',
  },
  chargeback_closed: { title: 'Error', message: 'This card dispute is already closed.' },
} as const;
