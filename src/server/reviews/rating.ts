import { getTableName, sql, type Column, type SQL } from 'drizzle-orm';
import { profiles } from '../db/schema';
import { ambassadorOf } from '../plans';

/**
 * A person's rating counters, 'Verified' badge and Community's 'Ambassador' badge read beside a row that names them,
 * for a write's RETURNING (a new ride or request shows its poster's rating and badges like a browsed one). Lists join
 * `profiles` and read the columns directly.
 *
 * Drizzle writes RETURNING columns without their table ("user_id"), which inside the subquery would name
 * profiles.user_id itself; so both sides are qualified by hand: the written table by its name, profiles by an alias.
 */
export function ratingOf(userId: Column) {
  const owner = sql`${sql.identifier(getTableName(userId.table))}.${sql.identifier(userId.name)}`;
  const read = <T>(column: SQL) =>
    sql<T>`(select ${column} from ${profiles} as rating_owner where rating_owner.${sql.identifier(profiles.userId.name)} = ${owner})`;
  const field = (column: Column) => sql`rating_owner.${sql.identifier(column.name)}`;
  return {
    ratingCount: read<number>(field(profiles.ratingCount)),
    ratingSum: read<number>(field(profiles.ratingSum)),
    // The 'Verified' badge beside the name (issue 37).
    ownerVerified: read<boolean>(field(profiles.verified)),
    // Community's 'Ambassador' badge beside it (issue 38).
    ownerAmbassador: read<boolean>(ambassadorOf(field(profiles.plan))),
  };
}
