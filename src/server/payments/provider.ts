import type { Card } from '../../shared/payments';

/**
 * What RuralRoute asks of a payment provider (the embedded test provider, Stripe). The booking lifecycle and the
 * ledger never know which one runs. Every call carries an idempotency key derived from the payment and the move: the
 * provider answers a repeated key with the first call's outcome, so a retry or a crash never charges, refunds or pays
 * out twice.
 */

/** How the requester pays: card fields (the test provider) or a payment method made by Stripe's own element. */
export type PaymentSource = CardSource | PaymentMethodSource;
type CardSource = { card: Card };
type PaymentMethodSource = { paymentMethodId: string };

export interface ChargeRequest {
  amountCents: number;
  currency: 'usd';
  idempotencyKey: string;
  source: PaymentSource;
  description: string;
  /** One group per booking: the charge and, later, the driver's transfer (Stripe's transfer_group). */
  transferGroup: string;
  metadata: Record<string, string>;
}

export type ChargeResult =
  | { status: 'succeeded'; chargeId: string; cardBrand: string; cardLast4: string; amountCents: number }
  /** cardLast4 is null when the provider could not say (Stripe: a payment method it no longer knows). */
  | { status: 'declined'; cardLast4: string | null };

export interface RefundRequest {
  chargeId: string;
  amountCents: number;
  idempotencyKey: string;
}

/** Saving a card for charges made later without the member (a plan's renewals, issue 38). */
export interface SaveCardRequest {
  userId: string;
  email: string;
  source: PaymentSource;
}

export type SaveCardResult =
  | { status: 'saved'; paymentMethodId: string; cardBrand: string; cardLast4: string }
  | { status: 'declined'; cardLast4: string | null };

/** Setting up where a driver's earnings are paid. */
export interface PayoutSetupRequest {
  userId: string;
  email: string;
  /** The provider account made for this user before, if any (a second setup continues it). */
  accountId: string | null;
  /** The test provider's form: a test routing and account number. Stripe onboards on its own pages instead. */
  bank?: { routingNumber: string; accountNumber: string };
  /** Where Stripe's onboarding returns to (and where an expired link is refreshed from). */
  returnUrl: string;
  refreshUrl: string;
}

export type PayoutSetupResult =
  | { accountId: string; status: 'active'; last4: string | null }
  | { accountId: string; status: 'pending'; onboardingUrl: string };

export interface TransferRequest {
  /** The driver's payout account at the provider. */
  accountId: string;
  amountCents: number;
  currency: 'usd';
  idempotencyKey: string;
  metadata: Record<string, string>;
}

/** The provider's own record of a charge, for reconciliation. */
export interface ProviderChargeRecord {
  chargeId: string;
  /** Our payment id, from the charge's metadata (payment_id). */
  paymentId: string | null;
  amountCents: number;
  refundedCents: number;
  status: 'succeeded' | 'declined';
}

/** The provider's own record of a transfer to a driver, for reconciliation. */
export interface ProviderTransferRecord {
  transferId: string;
  /** Our payout id, from the transfer's metadata (payout_id). */
  payoutId: string | null;
  amountCents: number;
}

export interface PaymentsProvider {
  readonly name: 'test' | 'stripe';
  /** Whether real money moves ('Test mode: no real money moves.' when not). */
  readonly live: boolean;
  /** The payment source it takes: the card fields (test) or a payment method made by Stripe.js (stripe). */
  readonly takes: keyof CardSource | keyof PaymentMethodSource;
  /** Charges a card: the payment source given, or a card saved by `saveCard` ({ paymentMethodId }). */
  charge(request: ChargeRequest): Promise<ChargeResult>;
  /** Saves a card for later charges (a plan's renewals); a card the provider refuses is 'declined'. */
  saveCard(request: SaveCardRequest): Promise<SaveCardResult>;
  refund(request: RefundRequest): Promise<{ refundId: string }>;
  /** The charge made under this idempotency key, if any (reconciliation: a crash between charge and commit). */
  findCharge(idempotencyKey: string): Promise<ChargeResult | null>;
  /** Creates (or continues) the driver's payout account. */
  setupPayouts(request: PayoutSetupRequest): Promise<PayoutSetupResult>;
  /** Whether payouts to this account can be made now (Stripe: the account's payouts_enabled). */
  payoutAccountStatus(accountId: string): Promise<'active' | 'pending'>;
  /** Pays a driver: the platform's money to their payout account. */
  transfer(request: TransferRequest): Promise<{ transferId: string }>;
  /** Every charge created at or after `since`, for reconciliation. */
  listCharges(since: Date): AsyncIterable<ProviderChargeRecord>;
  /** Every transfer created at or after `since`, for reconciliation. */
  listTransfers(since: Date): AsyncIterable<ProviderTransferRecord>;
}
