import { getTableName, sql, type Column } from 'drizzle-orm';
import { profiles } from '../db/schema';

/**
 * A person's rating counters and 'Verified' badge read beside a row that names them, for a write's RETURNING (a new ride or request
 * shows its poster's rating like a browsed one). Lists join `profiles` and read the columns directly.
 *
 * Drizzle writes RETURNING columns without their table ("user_id"), which inside the subquery would name
 * profiles.user_id itself; so both sides are qualified by hand: the written table by its name, profiles by an alias.
 */
export function ratingOf(userId: Column) {
  const owner = sql`${sql.identifier(getTableName(userId.table))}.${sql.identifier(userId.name)}`;
  const read = (column: Column) =>
    sql<number>`(select rating_owner.${sql.identifier(column.name)} from ${profiles} as rating_owner where rating_owner.${sql.identifier(profiles.userId.name)} = ${owner})`;
  return {
    ratingCount: read(profiles.ratingCount),
    ratingSum: read(profiles.ratingSum),
    // The 'Verified' badge beside the name (issue 37).
    ownerVerified: sql<boolean>`(select rating_owner.${sql.identifier(profiles.verified.name)} from ${profiles} as rating_owner where rating_owner.${sql.identifier(profiles.userId.name)} = ${owner})`,
  };
}
