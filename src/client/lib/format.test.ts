import { describe, expect, it } from 'vitest';
import { formatMoney } from '@shared/money';
import { capitalize, formatDateWithTime } from './format';

describe('formatting', () => {
  it('writes long dates with " at " and the time only when a time is set', () => {
    expect(formatDateWithTime('2026-11-21', null)).toBe('November 21, 2026');
    expect(formatDateWithTime('2026-11-21', '09:30')).toBe('November 21, 2026 at 09:30');
    expect(formatDateWithTime('2026-01-01', '23:05:00')).toBe('January 1, 2026 at 23:05');
  });

  it('capitalises statuses', () => {
    expect(capitalize('active')).toBe('Active');
    expect(capitalize('')).toBe('');
  });

  it('shows money with $ and 2 decimals', () => {
    expect(formatMoney('12.5')).toBe('$12.50');
    expect(formatMoney('0')).toBe('$0.00');
    expect(formatMoney('10000.00')).toBe('$10,000.00');
  });
});
