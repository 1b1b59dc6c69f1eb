import { dehydrate, hydrate, type DehydratedState, type Query, type QueryClient } from '@tanstack/react-query';
import { createStore, del, get, set, type UseStore } from 'idb-keyval';
import type { SessionInfo } from '@shared/auth';
import { queryKeys } from '../lib/query-keys';
import { OFFLINE_MAX_AGE_MS, SNAPSHOT_PLACE, takeEarlySnapshot } from './snapshot-place';

export { OFFLINE_MAX_AGE_MS };

/**
 * The query cache kept on the device (docs/weak-signal.md, 'Installable and offline'), so the dashboard opened with
 * no signal shows what was last loaded. It belongs to one signed-in person: nothing is kept for a signed-out
 * visitor, and the moment the session ends (sign-out, a 401, account deletion) or another person signs in, the
 * copy on the device and the lists in memory are gone; another person may pick up the same phone.
 */

/** What is kept: one person's loaded lists and session, written with the version of this layout. */
export interface Snapshot {
  version: number;
  userId: string;
  savedAt: number;
  state: DehydratedState;
}

/** Where the snapshot lives; IndexedDB in the browser (indexedDbSnapshots). */
export interface SnapshotStore {
  read(): Promise<Snapshot | undefined>;
  write(snapshot: Snapshot): Promise<void>;
  clear(): Promise<void>;
}

/** Raised when the snapshot's layout changes: an older one is dropped rather than misread. */
const SNAPSHOT_VERSION = 1;
/**
 * Changes that arrive together (one answer updating several queries) are written together, right after: what is on
 * screen is on the device a moment later, not a second later. A list left, or the page reloaded, in that second
 * was missing offline.
 */
const SAVE_DELAY_MS = 0;
/** A device whose IndexedDB does not answer (seen in some private windows) starts without the snapshot. */
const RESTORE_TIMEOUT_MS = 2000;

/** The dashboard's lists, counts and details; not security settings or place suggestions. */
const PERSISTED_ROOTS = new Set<unknown>([
  queryKeys.dashboard[0],
  queryKeys.rides[0],
  queryKeys.requests[0],
  queryKeys.bookings[0],
  queryKeys.alongRouteLists[0],
  queryKeys.messages[0],
  queryKeys.notifications[0],
]);

const isSession = (query: Query) =>
  query.queryKey.length === queryKeys.session.length &&
  queryKeys.session.every((part, i) => query.queryKey[i] === part);

function shouldPersist(query: Query): boolean {
  return query.state.status === 'success' && (isSession(query) || PERSISTED_ROOTS.has(query.queryKey[0]));
}

export function indexedDbSnapshots(): SnapshotStore {
  let store: UseStore | undefined;
  // Opened on first use: importing this module touches no storage.
  const db = () => (store ??= createStore(SNAPSHOT_PLACE.database, SNAPSHOT_PLACE.store));
  const KEY = SNAPSHOT_PLACE.key;
  // Async, so a browser without IndexedDB rejects rather than throws. The first read takes what the page's early
  // script read while the app downloaded (snapshot-place.ts), or reads itself if that failed.
  return {
    read: async () => {
      const early = takeEarlySnapshot();
      if (early)
        return early.then(
          (value) => value as Snapshot | undefined,
          () => get<Snapshot>(KEY, db()),
        );
      return get<Snapshot>(KEY, db());
    },
    write: async (snapshot) => set(KEY, snapshot, db()),
    clear: async () => del(KEY, db()),
  };
}

/**
 * Restores the last snapshot into `client` (`restored` settles once it is in, or when there is none) and from then
 * on keeps the snapshot in step with the cache. `stop` ends the keeping. With `restore: false` (the page's early
 * read found nothing kept, and the app has started without this code) nothing is read: the keeping starts from
 * what the cache holds now.
 */
export function persistQueryCache(
  client: QueryClient,
  store: SnapshotStore,
  { now = Date.now, restore = true }: { now?: () => number; restore?: boolean } = {},
): { restored: Promise<void>; stop: () => void } {
  /** The person whose data the cache and the snapshot hold (null: nobody's). */
  let owner: string | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let late = false;
  let unsubscribe = () => {};

  const save = () => {
    clearTimeout(timer);
    timer = undefined;
    if (owner === null || stopped) return;
    const snapshot: Snapshot = {
      version: SNAPSHOT_VERSION,
      userId: owner,
      savedAt: now(),
      state: dehydrate(client, { shouldDehydrateQuery: shouldPersist }),
    };
    // Storage full or refused: the app works on as it did before it kept anything.
    store.write(snapshot).catch(() => {});
  };

  /**
   * The last person's data leaves the device and the memory; the session itself says who is (not) signed in. Reset,
   * not removed: a page on screen holds its query, and a removed query would go on showing the last person's data
   * there (and keep it in memory) until the page was left; a reset one shows as loading and loads again as the
   * person now signed in.
   */
  const forget = () => {
    clearTimeout(timer);
    timer = undefined;
    store.clear().catch(() => {});
    void client.resetQueries({ predicate: (query) => !isSession(query) });
  };

  /** Takes the person the session names as the owner; the previous one's data goes. */
  const followSession = () => {
    const session = client.getQueryData<SessionInfo>(queryKeys.session);
    // Unknown between a cleared cache and the signed-out state written next: wait for that.
    if (session === undefined) return;
    const user = session.user?.id ?? null;
    if (user === owner) return;
    const previous = owner;
    owner = user;
    if (previous !== null) forget();
  };

  const saveSoon = () => {
    if (owner !== null) timer ??= setTimeout(save, SAVE_DELAY_MS);
  };

  const follow = () => {
    unsubscribe = client.getQueryCache().subscribe((event) => {
      followSession();
      const changed = event.type === 'removed' || (event.type === 'updated' && event.action.type === 'success');
      if (changed) saveSoon();
    });
    if (restore) return;
    // Started late: what loaded before now is kept as well.
    followSession();
    saveSoon();
  };

  // A phone switches apps without warning, and a page may be left at any moment: write what is pending then.
  const onHidden = () => {
    if (document.visibilityState === 'hidden' && timer !== undefined) save();
  };
  const onLeaving = () => {
    if (timer !== undefined) save();
  };

  const apply = (snapshot: Snapshot | undefined) => {
    if (late || stopped || !snapshot) return;
    if (snapshot.version !== SNAPSHOT_VERSION || now() - snapshot.savedAt > OFFLINE_MAX_AGE_MS) {
      store.clear().catch(() => {});
      return;
    }
    hydrate(client, snapshot.state);
    // Shown at once, but never taken as fresh: each restored query loads again as soon as a page uses it (and the
    // signal allows), so a start after a change on the server (a role granted, a booking moved) shows the change.
    void client.invalidateQueries({ refetchType: 'none' });
    owner = snapshot.userId;
  };

  const reading = restore
    ? store.read().then(apply, () => {
        // No IndexedDB (an old browser, a locked-down profile): start empty.
      })
    : Promise.resolve(void takeEarlySnapshot());
  let giveUp: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<void>((resolve) => (giveUp = setTimeout(resolve, RESTORE_TIMEOUT_MS)));
  const restored = Promise.race([reading, timeout]).then(() => {
    clearTimeout(giveUp);
    // A snapshot read after this is too late: the app has started without it, perhaps with another person.
    late = true;
    if (stopped) return;
    follow();
    if (typeof document !== 'undefined') document.addEventListener('visibilitychange', onHidden);
    if (typeof window !== 'undefined') window.addEventListener('pagehide', onLeaving);
  });

  return {
    restored,
    stop: () => {
      stopped = true;
      clearTimeout(timer);
      unsubscribe();
      if (typeof document !== 'undefined') document.removeEventListener('visibilitychange', onHidden);
      if (typeof window !== 'undefined') window.removeEventListener('pagehide', onLeaving);
    },
  };
}
