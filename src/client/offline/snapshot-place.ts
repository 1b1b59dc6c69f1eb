/**
 * Where the query cache kept on the device lives in IndexedDB (query-persistence.ts). src/client/early-requests.ts
 * reads it there before the app's scripts have arrived and, importing nothing, spells the place out itself, typed as
 * this constant: the two cannot drift apart without a type error.
 */
export const SNAPSHOT_PLACE = { database: 'ruralroute', store: 'offline', key: 'query-cache' } as const;

declare global {
  // Set by src/client/early-requests.ts on the app's pages (what it found, undefined: nothing kept); taken once, by
  // the first read of the snapshot.
  var __rrEarlySnapshot: Promise<unknown> | undefined;
}

/** The early read of the snapshot, once: a later read (after a sign-out cleared it, say) asks IndexedDB again. */
export function takeEarlySnapshot(): Promise<unknown> | undefined {
  const early = globalThis.__rrEarlySnapshot;
  globalThis.__rrEarlySnapshot = undefined;
  return early;
}
