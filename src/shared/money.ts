/** Compensation is a decimal string with at most 2 places ("12.5", "0.99"), never a float. */
export const COMPENSATION_MAX_CENTS = 1_000_000;

export function toCents(amount: string): number {
  const [whole = '0', frac = ''] = amount.split('.');
  return Number(whole) * 100 + Number(frac.padEnd(2, '0'));
}

export function centsToDecimal(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** '12.5' -> '$12.50' (spec: $ with 2 decimals). */
export function formatMoney(amount: string): string {
  const cents = toCents(amount);
  const whole = Math.floor(cents / 100).toLocaleString('en-US');
  return `$${whole}.${String(cents % 100).padStart(2, '0')}`;
}
