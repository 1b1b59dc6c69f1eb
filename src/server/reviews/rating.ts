import { sql, type AnyColumn } from 'drizzle-orm';
import { profiles } from '../db/schema';

/**
 * A person's rating counters read beside a row that names them, for a write's RETURNING (a new ride or request
 * shows its poster's rating like a browsed one). Lists join `profiles` and read the columns directly.
 */
export function ratingOf(userId: AnyColumn) {
  return {
    ratingCount: sql<number>`(select ${profiles.ratingCount} from ${profiles} where ${profiles.userId} = ${userId})`,
    ratingSum: sql<number>`(select ${profiles.ratingSum} from ${profiles} where ${profiles.userId} = ${userId})`,
  };
}
