import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { blocks } from '../db/schema';

/** Whether either of the two has blocked the other (a block works both ways). */
export async function isBlockedBetween(db: Db, a: string, b: string): Promise<boolean> {
  const rows = await db
    .select({ one: sql<number>`1` })
    .from(blocks)
    .where(
      sql`(${blocks.blockerId} = ${a} and ${blocks.blockedId} = ${b}) or (${blocks.blockerId} = ${b} and ${blocks.blockedId} = ${a})`,
    )
    .limit(1);
  return rows.length > 0;
}

/** SQL true when `viewer` and the owner in `ownerColumn` are blocked either way (for list filters). */
export const blockedWith = (viewer: unknown, ownerColumn: unknown) =>
  sql`exists (select 1 from ${blocks} where (${blocks.blockerId} = ${viewer} and ${blocks.blockedId} = ${ownerColumn}) or (${blocks.blockerId} = ${ownerColumn} and ${blocks.blockedId} = ${viewer}))`;
