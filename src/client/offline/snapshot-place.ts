/**
 * Where the query cache kept on the device lives in IndexedDB (query-persistence.ts). src/client/early-requests.ts
 * reads it there before the app's scripts have arrived and, importing nothing, spells the place out itself, typed as
 * this constant: the two cannot drift apart without a type error.
 */
export const SNAPSHOT_PLACE = { database: 'ruralroute', store: 'offline', key: 'query-cache' } as const;

/** A snapshot older than this is dropped; the app's cache keeps unused data as long (providers.tsx). */
export const OFFLINE_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

declare global {
  // Set by src/client/early-requests.ts on the app's pages (what it found, undefined: nothing kept); taken once, by
  // the first read of the snapshot.
  var __rrEarlySnapshot: Promise<unknown> | undefined;
}

/**
 * Whether the page's early read found a snapshot: false when it found none (a first visit on this device), true when
 * it found one, and undefined when there was no early read or it failed (only reading through the app's own code
 * tells). Does not take the read.
 */
export async function earlySnapshotFound(): Promise<boolean | undefined> {
  const early = globalThis.__rrEarlySnapshot;
  if (!early) return undefined;
  return early.then(
    (value) => value !== undefined,
    () => undefined,
  );
}

/** The early read of the snapshot, once: a later read (after a sign-out cleared it, say) asks IndexedDB again. */
export function takeEarlySnapshot(): Promise<unknown> | undefined {
  const early = globalThis.__rrEarlySnapshot;
  globalThis.__rrEarlySnapshot = undefined;
  return early;
}
