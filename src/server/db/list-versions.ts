import { sql } from 'drizzle-orm';
import type { Db } from './client';
import { rowsOf } from './result-rows';
import { myListVersions, users } from './schema';

/**
 * The versions of the lists kept in each instance's memory (list_versions for Browse, my_list_versions for each
 * person's own lists; the caches themselves are in src/server/listings): the options their version checks share,
 * and the fold that keeps the tables small.
 */

/** DataLoader options: no memo, one batch per turn of the event loop (the requests the loop took in at once). */
export const ONE_BATCH_PER_TURN = { cache: false, batchScheduleFn: (send: () => void) => setImmediate(send) };

/** Rows of exited backends folded into one base row (shard 0) per key: the sums stay exactly as they were. */
const foldShards = (table: 'list_versions' | 'my_list_versions', key: 'list' | 'user_id') =>
  sql.raw(`
    with dead as (
      select ${key} as key, shard from ${table}
      where shard <> 0 and shard not in (select pid from pg_stat_activity where pid is not null)
      for update skip locked
    ), gone as (
      delete from ${table} t using dead where t.${key} = dead.key and t.shard = dead.shard
      returning t.${key} as key, t.version
    ), folded as (
      insert into ${table} (${key}, shard, version)
        select key, 0, sum(version) from gone group by key
      on conflict (${key}, shard) do update set version = ${table}.version + excluded.version
      returning 1
    )
    select (select count(*) from gone)::int as n`);

/**
 * Each backend bumps a list_versions row of its own (migration 0019: shard = its pid), and my_list_versions rows of
 * its own (migration 0020), so the tables gain rows per connection that ever wrote, and every read sums a key's rows.
 * This folds the rows of backends that have exited into each key's base row (shard 0, never a pid): the sums, so
 * every cached version, stay exactly as they were. Rows another transaction holds are skipped (a new backend that
 * reused a pid), so the fold never waits for a writer, and several instances may run it at once. The rows of users
 * who no longer exist or have deleted their account go too (nobody reads their lists). Returns the number of rows
 * folded or removed.
 */
export async function foldListVersions(db: Db): Promise<number> {
  let n = 0;
  for (const fold of [foldShards('list_versions', 'list'), foldShards('my_list_versions', 'user_id')]) {
    n += Number(rowsOf<{ n: number }>(await db.execute(fold))[0]?.n ?? 0);
  }
  const gone = await db.execute(sql`
    with gone as (
      delete from ${myListVersions} where (${myListVersions.userId}, ${myListVersions.shard}) in (
        select ${myListVersions.userId}, ${myListVersions.shard} from ${myListVersions}
        where not exists (select 1 from ${users}
          where ${users.id} = ${myListVersions.userId} and ${users.deletedAt} is null)
        for update skip locked)
      returning 1
    )
    select count(*)::int as n from gone`);
  return n + Number(rowsOf<{ n: number }>(gone)[0]?.n ?? 0);
}
