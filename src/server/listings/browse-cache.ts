import DataLoader from 'dataloader';
import { sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { Page } from '../../shared/marketplace';
import { PageJson } from '../core/page-json';
import type { Db } from '../db/client';
import { ONE_BATCH_PER_TURN } from '../db/list-versions';
import { blocks, bookings, listVersions } from '../db/schema';

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
  }, ONE_BATCH_PER_TURN);

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
