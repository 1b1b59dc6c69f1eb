import type { Card } from '../../shared/payments';

/**
 * What RuralRoute asks of a payment provider (the embedded test provider, Stripe). The booking lifecycle and the
 * ledger never know which one runs. Every call carries an idempotency key derived from the payment and the move: the
 * provider answers a repeated key with the first call's outcome, so a retry or a crash never charges or refunds twice.
 */
export interface ChargeRequest {
  amountCents: number;
  currency: 'usd';
  idempotencyKey: string;
  card: Card;
  description: string;
  /** One group per booking: the charge and, later, the driver's transfer (Stripe's transfer_group). */
  transferGroup: string;
  metadata: Record<string, string>;
}

export type ChargeResult =
  | { status: 'succeeded'; chargeId: string; cardBrand: string; cardLast4: string; amountCents: number }
  | { status: 'declined'; cardLast4: string };

export interface RefundRequest {
  chargeId: string;
  amountCents: number;
  idempotencyKey: string;
}

export interface PaymentsProvider {
  readonly name: 'test' | 'stripe';
  /** Whether real money moves ('Test mode: no real money moves.' when not). */
  readonly live: boolean;
  charge(request: ChargeRequest): Promise<ChargeResult>;
  refund(request: RefundRequest): Promise<{ refundId: string }>;
  /** The charge made under this idempotency key, if any (reconciliation: a crash between charge and commit). */
  findCharge(idempotencyKey: string): Promise<ChargeResult | null>;
}
