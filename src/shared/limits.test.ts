import { describe, expect, it } from 'vitest';
import { rideInputSchema } from './marketplace';

describe('length limits count characters, not UTF-16 units', () => {
  it('accepts 500 characters that include astral ones (as PostgreSQL char_length counts them) and refuses 501', () => {
    const schema = rideInputSchema(() => '2000-01-01');
    const base = { destination: 'Town', departure_date: '2099-01-01' };
    expect(schema.safeParse({ ...base, origin: `${'a'.repeat(499)}🚜` }).success).toBe(true);
    expect(schema.safeParse({ ...base, origin: `${'a'.repeat(500)}🚜` }).error?.issues[0]?.message).toBe(
      'Origin must be less than 500 characters',
    );
  });
});
