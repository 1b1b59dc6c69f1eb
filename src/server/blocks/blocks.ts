import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { preparedStatement } from '../db/prepared';
import { rowsOf } from '../db/result-rows';
import { blocks } from '../db/schema';

/** Whether either of the two has blocked the other (a block works both ways). */
export async function isBlockedBetween(db: Db, a: string, b: string): Promise<boolean> {
  return rowsOf<{ blocked: boolean }>(await blockedBetween(db, { a, b }))[0]?.blocked === true;
}

/** Asked before every message, offer and review: prepared once per connection (db/prepared.ts). */
const blockedBetween = preparedStatement(
  'blocked_between',
  () => sql`select ${blockedWith(sql.placeholder('a'), sql.placeholder('b'))} as blocked`,
);

/** SQL true when `viewer` and the owner in `ownerColumn` are blocked either way (for list filters). */
export const blockedWith = (viewer: unknown, ownerColumn: unknown) =>
  sql`exists (select 1 from ${blocks} where (${blocks.blockerId} = ${viewer} and ${blocks.blockedId} = ${ownerColumn}) or (${blocks.blockerId} = ${ownerColumn} and ${blocks.blockedId} = ${viewer}))`;
