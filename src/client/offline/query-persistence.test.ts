import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionInfo } from '@shared/auth';
import { createQueryClient } from '@/app/providers';
import { ADA, SAM } from '@/test/factories';
import { sessionOf } from '@/test/moderation';
import { stubApi } from '@/test/render';
import { api } from '../lib/api-client';
import { OFFLINE_MAX_AGE_MS, persistQueryCache, type Snapshot, type SnapshotStore } from './query-persistence';
import { queryKeys } from '../lib/query-keys';

/** The device's storage (IndexedDB in the browser), as a value the test can look into. */
class MemoryStore implements SnapshotStore {
  saved: Snapshot | undefined;
  async read() {
    return this.saved && structuredClone(this.saved);
  }
  async write(snapshot: Snapshot) {
    this.saved = structuredClone(snapshot);
  }
  async clear() {
    this.saved = undefined;
  }
}

const SIGNED_OUT: SessionInfo = { user: null, session: null };
const rides = { items: [{ id: 'r1', origin: 'Oakville' }], next_cursor: null };

let store: MemoryStore;
let stops: (() => void)[] = [];

async function persisted(client: QueryClient) {
  const { restored, stop } = persistQueryCache(client, store);
  stops.push(stop);
  await restored;
}
/** Past the write delay, with TanStack's notifications delivered. */
const settle = () => vi.advanceTimersByTimeAsync(1500);
const keysIn = (snapshot: Snapshot | undefined) => snapshot?.state.queries.map((q) => q.queryKey) ?? [];

beforeEach(() => {
  vi.useFakeTimers();
  store = new MemoryStore();
});
afterEach(() => {
  stops.forEach((stop) => stop());
  stops = [];
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the query cache kept on the device', () => {
  it('keeps a signed-in person’s session and lists, not place suggestions, and brings them back on the next start', async () => {
    const client = createQueryClient();
    await persisted(client);
    client.setQueryData(queryKeys.session, sessionOf(ADA));
    client.setQueryData(queryKeys.myRides, rides);
    client.setQueryData(queryKeys.placeSuggestions('oak'), [{ id: 'p1', name: 'Oakville' }]);
    await settle();
    expect(store.saved?.userId).toBe(ADA.id);
    expect(keysIn(store.saved)).toEqual(expect.arrayContaining([[...queryKeys.session], [...queryKeys.myRides]]));
    expect(keysIn(store.saved)).not.toContainEqual([...queryKeys.placeSuggestions('oak')]);
    const loadedAt = client.getQueryState(queryKeys.myRides)!.dataUpdatedAt;

    // The next start, offline: the same lists, with the time they were loaded (the banner shows it).
    const next = createQueryClient();
    await persisted(next);
    expect(next.getQueryData(queryKeys.myRides)).toEqual(rides);
    expect(next.getQueryData<SessionInfo>(queryKeys.session)?.user?.id).toBe(ADA.id);
    expect(next.getQueryState(queryKeys.myRides)!.dataUpdatedAt).toBe(loadedAt);
    // Shown, but loaded again as soon as a page uses it: the session too, even within its minute of freshness.
    expect(next.getQueryState(queryKeys.session)!.isInvalidated).toBe(true);
    expect(next.getQueryState(queryKeys.myRides)!.isInvalidated).toBe(true);
    const calls = stubApi({ 'GET /auth/session': () => ({ body: sessionOf(ADA) }) });
    const observer = new QueryObserver(next, { queryKey: queryKeys.session, queryFn: () => api('/auth/session') });
    const unsubscribe = observer.subscribe(() => {});
    await settle();
    unsubscribe();
    expect(calls.map((c) => c.path)).toEqual(['/auth/session']);
  });

  it('started after the first screen (nothing was kept), it reads nothing and keeps what had loaded before it', async () => {
    // Something on the device it must not bring back: it was told nothing was kept (the page's early read).
    store.saved = {
      version: 1,
      userId: SAM.id,
      savedAt: Date.now(),
      state: { mutations: [], queries: [] },
    };
    const read = vi.spyOn(store, 'read');
    const client = createQueryClient();
    client.setQueryData(queryKeys.session, sessionOf(ADA));
    client.setQueryData(queryKeys.myRides, rides);
    const { restored, stop } = persistQueryCache(client, store, { restore: false });
    stops.push(stop);
    await restored;
    await settle();
    expect(read).not.toHaveBeenCalled();
    expect(store.saved?.userId).toBe(ADA.id);
    expect(keysIn(store.saved)).toEqual(expect.arrayContaining([[...queryKeys.session], [...queryKeys.myRides]]));
    // And it follows from then on: signing out wipes the copy.
    client.setQueryData(queryKeys.session, SIGNED_OUT);
    await settle();
    expect(store.saved).toBeUndefined();
  });

  it('keeps nothing for a signed-out visitor', async () => {
    const client = createQueryClient();
    await persisted(client);
    client.setQueryData(queryKeys.session, SIGNED_OUT);
    client.setQueryData(queryKeys.browseRides, rides);
    await settle();
    expect(store.saved).toBeUndefined();
  });

  it('signing out wipes the device’s copy and nothing is written after', async () => {
    const client = createQueryClient();
    await persisted(client);
    client.setQueryData(queryKeys.session, sessionOf(ADA));
    client.setQueryData(queryKeys.myRides, rides);
    await settle();
    expect(store.saved).toBeDefined();
    // What 'Sign Out' (and account deletion) does with the cache.
    client.clear();
    client.setQueryData(queryKeys.session, SIGNED_OUT);
    await settle();
    expect(store.saved).toBeUndefined();
    client.setQueryData(queryKeys.browseRides, rides);
    await settle();
    expect(store.saved).toBeUndefined();
  });

  it('a 401 that ends the session wipes the copy and the lists in memory', async () => {
    stubApi({ 'GET /rides/mine': () => ({ status: 401, body: { code: 'unauthenticated', message: 'Sign in' } }) });
    const client = createQueryClient();
    await persisted(client);
    client.setQueryData(queryKeys.session, sessionOf(ADA));
    client.setQueryData(queryKeys.myBookings, { items: [], next_cursor: null });
    client.setQueryData(queryKeys.myRides, rides);
    await settle();
    expect(store.saved).toBeDefined();
    const observer = new QueryObserver(client, {
      queryKey: queryKeys.myRides,
      queryFn: () => api('/rides/mine'),
      retry: false,
    });
    const unsubscribe = observer.subscribe(() => {});
    await settle();
    unsubscribe();
    expect(client.getQueryData<SessionInfo>(queryKeys.session)).toEqual(SIGNED_OUT);
    expect(store.saved).toBeUndefined();
    expect(client.getQueryData(queryKeys.myBookings)).toBeUndefined();
  });

  it('restored for one person, another person’s session drops the first person’s lists', async () => {
    const first = createQueryClient();
    await persisted(first);
    first.setQueryData(queryKeys.session, sessionOf(ADA));
    first.setQueryData(queryKeys.myRides, rides);
    await settle();

    const client = createQueryClient();
    await persisted(client);
    expect(client.getQueryData(queryKeys.myRides)).toEqual(rides);
    client.setQueryData(queryKeys.session, sessionOf(SAM));
    await settle();
    expect(client.getQueryData(queryKeys.myRides)).toBeUndefined();
    expect(store.saved?.userId).toBe(SAM.id);
    expect(keysIn(store.saved)).not.toContainEqual([...queryKeys.myRides]);
  });

  it('drops a copy older than the time it may be kept', async () => {
    const first = createQueryClient();
    await persisted(first);
    first.setQueryData(queryKeys.session, sessionOf(ADA));
    first.setQueryData(queryKeys.myRides, rides);
    await settle();
    vi.setSystemTime(Date.now() + OFFLINE_MAX_AGE_MS + 1000);

    const client = createQueryClient();
    await persisted(client);
    expect(client.getQueryData(queryKeys.myRides)).toBeUndefined();
    expect(store.saved).toBeUndefined();
  });
});
