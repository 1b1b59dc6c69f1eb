import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { userEvents } from '../db/schema';

/**
 * Deletes live events older than `retentionHours` (by the database's clock): past that, a client resuming with
 * `Last-Event-ID` gets `reset` instead of a replay. Idempotent, so every instance may run it on its own timer.
 * The heads in event_streams stay, so a user's ids keep counting up. Returns the number of rows deleted.
 */
export async function sweepEvents(db: Db, retentionHours: number): Promise<number> {
  const result = await db.execute(sql`
    with gone as (
      delete from ${userEvents}
      where ${userEvents.createdAt} < now() - make_interval(hours => ${retentionHours}::int)
      returning 1
    )
    select count(*)::int as n from gone`);
  const rows = (Array.isArray(result) ? result : (result as { rows: { n: number }[] }).rows) as { n: number }[];
  return Number(rows[0]?.n ?? 0);
}
