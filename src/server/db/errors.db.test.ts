import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/database';
import { isBadDataError, isUniqueViolation, sqlState } from './errors';

describe('database error classification (real database errors)', () => {
  it('reads the SQLSTATE through drizzle and tells bad data from other failures', async () => {
    const database = await createTestDatabase();
    const fail = async (query: ReturnType<typeof sql>) => {
      try {
        await database.db.execute(query);
      } catch (err) {
        return err;
      }
      throw new Error('query did not fail');
    };
    try {
      const nul = await fail(sql`select ${'a\u0000b'}::text`);
      expect(isBadDataError(nul)).toBe(true);
      const range = await fail(sql`select ${'99999999999'}::int`);
      expect(sqlState(range)).toBe('22003');
      expect(isBadDataError(range)).toBe(true);
      const missing = await fail(sql`select * from no_such_table`);
      expect(sqlState(missing)).toBe('42P01');
      expect(isBadDataError(missing)).toBe(false);
      expect(isUniqueViolation(missing)).toBe(false);
      expect(isUniqueViolation({ cause: { code: '23505' } })).toBe(true);
    } finally {
      await database.close();
    }
  });
});
