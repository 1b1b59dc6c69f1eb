import { z } from 'zod';
import type { PaymentCheckout, PaymentQuote } from './payments';

/** Dollars as typed ('35', '35.5', '$35.00') -> cents; anything else fails. */
export const dollarsSchema = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .transform((v) => v.replace(/^\$/, '').replace(/,/g, ''))
    .refine((v) => /^\d{1,7}(\.\d{1,2})?$/.test(v), message)
    .transform((v) => Math.round(Number(v) * 100));

/** Compensation is a decimal string with at most 2 places ("12.5", "0.99"), never a float. */
export const COMPENSATION_MAX_CENTS = 1_000_000;

export function toCents(amount: string): number {
  const [whole = '0', frac = ''] = amount.split('.');
  return Number(whole) * 100 + Number(frac.padEnd(2, '0'));
}

/** Whole dollars with thousands separators ('1,250'): one formatter, built once (toLocaleString builds one per call). */
const WHOLE_DOLLARS = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const wholeDollars = (cents: number) => WHOLE_DOLLARS.format(Math.floor(cents / 100));

export function centsToDecimal(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** '12.5' -> '$12.50' (spec: $ with 2 decimals). */
export function formatMoney(amount: string): string {
  const cents = toCents(amount);
  return `$${wholeDollars(cents)}.${String(cents % 100).padStart(2, '0')}`;
}

// ─── Payments (issue 35, docs/payments.md) ──────────────────────────────────────────────────────────────────────
// Amounts are integer cents, USD, computed on the server only; the browser shows what the server answered.

/** The service fee's share of the compensation, and its floor. */
export const SERVICE_FEE_RATE_PERCENT = 10;
export const SERVICE_FEE_MIN_CENTS = 50;

/**
 * The requester's service fee on a compensation: 10%, rounded to the cent (half up), at least $0.50; none for $0, and
 * none for a Plus or Community member (`waived`, issue 38).
 */
export function serviceFeeCents(compensationCents: number, waived = false): number {
  if (compensationCents <= 0 || waived) return 0;
  return Math.max(SERVICE_FEE_MIN_CENTS, Math.round((compensationCents * SERVICE_FEE_RATE_PERCENT) / 100));
}

/** The Delivery Guarantee's reserve takes this share of every service fee when the delivery completes (issue 36). */
export const GUARANTEE_RESERVE_SHARE_PERCENT = 25;

/**
 * A released fee split between RuralRoute's fees and the guarantee reserve: the reserve's share rounded down, the rest
 * to fees, so the two always add up to the fee.
 */
export function splitFeeCents(feeCents: number): { feesCents: number; reserveCents: number } {
  const reserveCents = Math.floor((feeCents * GUARANTEE_RESERVE_SHARE_PERCENT) / 100);
  return { feesCents: feeCents - reserveCents, reserveCents };
}

/** Who cancelled, and whether the item had been picked up: what the cancellation policy needs to know. */
export interface CancellationCase {
  by: 'driver' | 'requester';
  pickedUp: boolean;
}

/**
 * The cancellation policy (/terms 'Cancellations and disputes'): the driver cancelling at any time, or the requester
 * before pickup, refunds everything; the requester cancelling after pickup leaves the driver half the compensation
 * (rounded down to the cent) for the trip made, and refunds the rest and the fee.
 */
export function cancellationSplit(
  compensationCents: number,
  feeCents: number,
  c: CancellationCase,
): { refundCents: number; driverKeepsCents: number } {
  const driverKeepsCents = c.by === 'requester' && c.pickedUp ? Math.floor(compensationCents / 2) : 0;
  return { refundCents: compensationCents + feeCents - driverKeepsCents, driverKeepsCents };
}

/**
 * A moderator's 'Split' of held money (issue 36, decision 032): `refundCents` goes back to the requester, the rest to
 * the driver up to the compensation, and anything beyond it is the service fee RuralRoute keeps. The three add up to
 * the total paid.
 */
export function disputeSplit(
  compensationCents: number,
  feeCents: number,
  refundCents: number,
): { refundCents: number; driverKeepsCents: number; feeKeptCents: number } {
  const rest = compensationCents + feeCents - refundCents;
  const driverKeepsCents = Math.min(rest, compensationCents);
  return { refundCents, driverKeepsCents, feeKeptCents: rest - driverKeepsCents };
}

/** RuralRoute credit pays before the card (issue 36): as much of the total as the balance covers. */
export const creditApplied = (totalCents: number, balanceCents: number) =>
  Math.max(0, Math.min(totalCents, balanceCents));

/**
 * What choosing a driver for this compensation costs the requester, and how the pay dialog takes the card (the
 * provider that runs): null when there is nothing to pay.
 */
export function quoteFor(
  compensationCents: number | null,
  checkout: PaymentCheckout,
  creditBalanceCents = 0,
  /** The requester's paid plan's name ('Plus', 'Community'), which waives the fee; null on Free. */
  feeWaivedBy: string | null = null,
): PaymentQuote | null {
  if (!compensationCents || compensationCents <= 0) return null;
  const fee = serviceFeeCents(compensationCents, feeWaivedBy !== null);
  const total = compensationCents + fee;
  const credit = creditApplied(total, creditBalanceCents);
  return {
    compensation_cents: compensationCents,
    fee_cents: fee,
    total_cents: total,
    credit_cents: credit,
    card_cents: total - credit,
    fee_waived_by: feeWaivedBy,
    test_mode: checkout.provider === 'test',
    provider: checkout.provider,
    publishable_key: checkout.publishable_key,
  };
}

/** 1250 -> '$12.50'; -75 -> '-$0.75'. */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}$${wholeDollars(abs)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Shown wherever money shows while the embedded test provider runs (and in its e-mails' receipts). */
export const TEST_MODE_NOTICE = 'Test mode: no real money moves.';
