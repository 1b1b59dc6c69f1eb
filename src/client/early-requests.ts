// Starts the API requests of an app page's first screen from its HTML (the prerendered /dashboard frame), so they
// travel while the app's scripts download instead of after them: on a slow line that is one round trip and more
// saved. The build writes the list into the page (vite.config.ts, appShellPage); the API client takes each answer
// instead of asking again (src/client/lib/early-responses.ts). Nothing here is specific to a person: the requests
// carry the visitor's own cookie, and a signed-out visitor's answers (401) are simply never used.
// Type imports only: this file must stay a chunk of its own, with no import, or it would wait for that chunk.
import type { EarlyRequest, EarlyRequests } from './lib/early-responses';
import type { SNAPSHOT_PLACE } from './offline/snapshot-place';

const list = document.getElementById('rr-early');
const wanted: EarlyRequest[] = list ? (JSON.parse(list.textContent || '[]') as EarlyRequest[]) : [];
const early: EarlyRequests = new Map();
for (const { path, media } of wanted) {
  // A request whose part of the page is not shown on this screen (the sidebar's badge on a phone) is not made.
  if (media && !window.matchMedia(media).matches) continue;
  const response = fetch(path, { credentials: 'same-origin' });
  // Unclaimed (a signed-out visitor, or the app already had it), its failure must not be reported as unhandled.
  response.catch(() => undefined);
  early.set(path, { at: performance.now(), response });
}
globalThis.__rrEarlyRequests = early;

// The query cache kept on the device (offline/query-persistence.ts) is read now too, while the scripts download: the
// app waits for it before its first render, and opening IndexedDB took 50 ms on a first visit and 100 ms on a
// return. Where it lives is spelled out here (an import would give this chunk one), typed as the app's own constant.
const place: typeof SNAPSHOT_PLACE = { database: 'ruralroute', store: 'offline', key: 'query-cache' };
globalThis.__rrEarlySnapshot = new Promise<unknown>((resolve, reject) => {
  const open = indexedDB.open(place.database);
  // A first visit: the same empty store idb-keyval's createStore makes.
  open.onupgradeneeded = () => open.result.createObjectStore(place.store);
  open.onerror = () => reject(open.error ?? new Error('IndexedDB refused'));
  open.onsuccess = () => {
    const db = open.result;
    try {
      const read = db.transaction(place.store, 'readonly').objectStore(place.store).get(place.key);
      read.onsuccess = () => resolve(read.result as unknown);
      read.onerror = () => reject(read.error ?? new Error('IndexedDB refused'));
      read.transaction!.oncomplete = () => db.close();
    } catch (error) {
      // No such store (a database made otherwise): the app reads through its own code instead.
      db.close();
      reject(error instanceof Error ? error : new Error('IndexedDB refused'));
    }
  };
});
// Unclaimed (the app never asks, or reads again itself), a failure must not be reported as unhandled.
globalThis.__rrEarlySnapshot.catch(() => undefined);
