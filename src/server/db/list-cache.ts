import DataLoader from 'dataloader';
import { sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import { gzipSync } from 'node:zlib';
import type { Page } from '../../shared/marketplace';
import type { Db } from './client';
import { rowsOf } from './rows';
import { blocks, bookings, listVersions, myListVersions, users } from './schema';

export type BrowseList = 'rides' | 'requests';

export interface ListCacheSpec<T> {
  list: BrowseList;
  /**
   * Requests: the viewer's live offers among a cached page's ids are read with the version (a card's 'accepted by
   * me'); an accept does not change the page itself, so it does not bump the version.
   */
  offers?: boolean;
  idOf: (item: T) => string;
  /** Whose listing it is (a card is_own for them). */
  ownerOf: (item: T) => string;
  /** A cached item as this viewer sees it: whatever on a card depends on who looks (is_own, accepted_by_me). */
  personalize: (item: T, viewerId: string, offered: ReadonlySet<string>) => T;
  /** Pages kept per instance (first pages and the cursor pages people reach); default 200. */
  max?: number;
}

interface Entry<T> {
  version: string;
  page: Page<T>;
  /** The page as JSON for a viewer who owns none of it and has no offer on it: most hits send this text as it is. */
  text: PageJson;
  owners: ReadonlySet<string>;
  /** The page's ids for the offers check ('' when the list has none to check), joined once when stored. */
  ids: string;
}

/**
 * A page already serialized (a cache hit needing nothing personal): the route sends the text as the body, or its
 * gzip bytes to a client that asks for gzip (every browser), made once per cached page and reused by every hit.
 */
export class PageJson {
  #gzip: Uint8Array<ArrayBuffer> | undefined;
  constructor(readonly json: string) {}
  /** Level 6, as compressResponses() (http/compress.ts) would make them for each response. */
  gzip(): Uint8Array<ArrayBuffer> {
    return (this.#gzip ??= new Uint8Array(gzipSync(this.json)));
  }
}

/** The page either way (benches and tests that read a list's cursor). */
export const pageOf = <T>(page: Page<T> | PageJson): Page<T> =>
  page instanceof PageJson ? (JSON.parse(page.json) as Page<T>) : page;

/** DataLoader options: no memo, one batch per turn of the event loop (the requests the loop took in at once). */
const PER_TURN = { cache: false, batchScheduleFn: (send: () => void) => setImmediate(send) };

const NOBODY = '';
const NONE: ReadonlySet<string> = new Set();

interface ViewerState {
  version: string;
  blocked: boolean;
  offered: ReadonlySet<string>;
}

/**
 * A browse list's pages in this process's memory, each under the list's version (the sum of its list_versions
 * rows, migration 0018) read when the page was loaded. Every request reads the current version in one small
 * prepared statement (one for all the requests of a turn of the event loop: `states` below), with whether the viewer
 * has any block either way; a page is served from memory only when its version is still the current one and the
 * viewer has no block (the cached page was cut for someone with none).
 * Everything else loads the page as before, for this viewer, and a viewer with no block stores it.
 *
 * Why this is correct across instances: a write to anything a card shows bumps the version in the writer's own
 * transaction (statement triggers), so once it has committed every instance reads the new version and misses. The
 * version is read before the page: a page loaded after a write that committed in between is newer than its version
 * says, which costs one extra load, never a stale answer. Cursor pages are cached too (the key holds the cursor).
 */
export function createListCache<T>(db: Db, spec: ListCacheSpec<T>) {
  const cache = new LRUCache<string, Entry<T>>({ max: spec.max ?? 200 });
  const viewers = sql`string_to_array(${sql.placeholder('viewers')}, ',')::uuid[]`;
  // The viewers' live offers among the pages' ids, as 'viewer request' pairs (every page of the batch: an id from
  // another viewer's page matches no card of this one).
  const offers = spec.offers
    ? sql`array(select ${bookings.driverId}::text || ' ' || ${bookings.requestId}::text from ${bookings}
        where ${bookings.driverId} = any(${viewers})
        and ${bookings.requestId} = any(string_to_array(${sql.placeholder('ids')}, ',')::uuid[])
        and ${bookings.status} in ('pending', 'confirmed', 'completed'))`
    : sql`'{}'::text[]`;
  const check = db
    .select({
      version: sql<string>`(select coalesce(sum(${listVersions.version}), 0)::text from ${listVersions} where ${listVersions.list} = ${sql.raw(`'${spec.list}'`)})`,
      blocked: sql<string[]>`array(select viewer::text from unnest(${viewers}) as viewer
        where exists (select 1 from ${blocks} where ${blocks.blockerId} = viewer or ${blocks.blockedId} = viewer))`,
      offered: sql<string[]>`${offers}`,
    })
    .from(sql`(select 1) as one`)
    .prepare(`list_cache_${spec.list}`);

  /**
   * The version, and each viewer's block and offers, for every request that asked since the last batch went: one
   * statement per turn of the event loop (DataLoader, scheduled with setImmediate, so a batch gathers the requests
   * the loop took in at once) instead of one per request. Each request's statement is still sent after the request
   * arrived, so it sees every write committed before it: the same guarantee as a statement of its own.
   */
  const states = new DataLoader<{ viewerId: string; ids: string }, ViewerState>(async (asks) => {
    const ids = new Set(asks.flatMap((ask) => (ask.ids ? ask.ids.split(',') : [])));
    const [row] = await check.execute({
      viewers: [...new Set(asks.map((ask) => ask.viewerId))].join(','),
      ids: [...ids].join(','),
    });
    if (!row) throw new Error('list version: no row');
    const blocked = new Set(row.blocked);
    const offered = new Map<string, Set<string>>();
    for (const pair of row.offered) {
      const [viewerId = '', requestId = ''] = pair.split(' ');
      let mine = offered.get(viewerId);
      if (!mine) offered.set(viewerId, (mine = new Set()));
      mine.add(requestId);
    }
    return asks.map(({ viewerId }) => ({
      version: row.version,
      blocked: blocked.has(viewerId),
      offered: offered.get(viewerId) ?? NONE,
    }));
  }, PER_TURN);

  const entryOf = (version: string, page: Page<T>): Entry<T> => ({
    version,
    page,
    text: new PageJson(
      JSON.stringify({ ...page, items: page.items.map((item) => spec.personalize(item, NOBODY, NONE)) }),
    ),
    owners: new Set(page.items.map(spec.ownerOf)),
    ids: spec.offers ? page.items.map(spec.idOf).join(',') : '',
  });

  return async function cachedPage(
    viewerId: string,
    key: string,
    load: () => Promise<Page<T>>,
  ): Promise<Page<T> | PageJson> {
    const entry = cache.get(key);
    const state = await states.load({ viewerId, ids: entry?.ids ?? '' });
    if (entry && !state.blocked && entry.version === state.version) {
      if (!state.offered.size && !entry.owners.has(viewerId)) return entry.text;
      return {
        ...entry.page,
        items: entry.page.items.map((item) => spec.personalize(item, viewerId, state.offered)),
      };
    }
    const page = await load();
    if (!state.blocked) cache.set(key, entryOf(state.version, page));
    return page;
  };
}

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
  }, PER_TURN);
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
