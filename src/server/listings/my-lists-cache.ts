import DataLoader from 'dataloader';
import { sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { Page } from '../../shared/marketplace';
import { PageJson } from '../core/page-json';
import type { Db } from '../db/client';
import { ONE_BATCH_PER_TURN } from '../db/list-versions';
import { myListVersions } from '../db/schema';

/** One user's own lists in memory: about 16 MB of page text per instance at most (a My Rides page is ~10 KB). */
const MY_LISTS_MAX_BYTES = 16 * 1024 * 1024;

export type MyListPage = <T>(userId: string, key: string, load: () => Promise<Page<T>>) => Promise<Page<T> | PageJson>;

const myListCaches = new WeakMap<Db, MyListPage>();

/**
 * My Rides, My Requests and My Bookings pages in this process's memory, each under its user's version (the sum of
 * their my_list_versions rows, migration 0020): one cache per database handle, shared by the three lists.
 * Every request reads its user's current version (one statement for all the users of a turn of the event loop,
 * as the browse check); a page is served from memory, as the JSON text it was sent as, only while that version
 * stands. Nothing on these pages depends on anything but the user and the database rows the triggers watch, so the
 * text is the same for every read of one user's page.
 *
 * Correct across instances for the reason browse is: a write to anything one of these pages shows bumps the user's
 * version in the writer's own transaction, and the version is read before the page is loaded.
 */
export function myListCache(db: Db): MyListPage {
  const existing = myListCaches.get(db);
  if (existing) return existing;
  const cache = new LRUCache<string, { version: string; page: PageJson }>({
    maxSize: MY_LISTS_MAX_BYTES,
    sizeCalculation: (entry, key) => entry.page.json.length + key.length,
  });
  const check = db
    .select({ userId: myListVersions.userId, version: sql<string>`sum(${myListVersions.version})::text` })
    .from(myListVersions)
    .where(sql`${myListVersions.userId} = any(string_to_array(${sql.placeholder('users')}, ',')::uuid[])`)
    .groupBy(myListVersions.userId)
    .prepare('my_list_versions');
  const versions = new DataLoader<string, string>(async (userIds) => {
    const rows = await check.execute({ users: [...new Set(userIds)].join(',') });
    const byUser = new Map(rows.map((row) => [row.userId, row.version]));
    return userIds.map((id) => byUser.get(id) ?? '0');
  }, ONE_BATCH_PER_TURN);
  const cachedPage: MyListPage = async (userId, key, load) => {
    const cacheKey = `${userId}|${key}`;
    const entry = cache.get(cacheKey);
    const version = await versions.load(userId);
    if (entry && entry.version === version) return entry.page;
    const page = new PageJson(JSON.stringify(await load()));
    cache.set(cacheKey, { version, page });
    return page;
  };
  myListCaches.set(db, cachedPage);
  return cachedPage;
}
