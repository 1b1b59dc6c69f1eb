import { QueryClientProvider } from '@tanstack/react-query';
import { Outlet } from '@/lib/router';
import { earlySnapshotFound } from '@/offline/snapshot-place';
import { followSessionSwitches } from '@/lib/session-switch';
import { queryClient } from '../providers';

/**
 * Brings back what the device kept from the last visit, then keeps the cache on the device (offline/query-persistence.ts).
 * When the page's early read found nothing kept (a first visit on this device), the app starts at once and that code
 * comes just after the first screen (about 3 KB on a slow line's first visit, issue 34): there is nothing to wait for.
 */
async function restoreKeptCache(): Promise<void> {
  const kept = (await earlySnapshotFound()) ?? true;
  const keeping = import('@/offline/query-persistence').then(({ indexedDbSnapshots, persistQueryCache }) =>
    persistQueryCache(queryClient, indexedDbSnapshots(), { restore: kept }),
  );
  // Its chunk failing to load (a weak signal) must not stop the app: it starts without what was kept.
  const restored = keeping.then(
    (persistence) => persistence.restored,
    () => undefined,
  );
  if (kept) await restored;
}

/**
 * Settles once what the device kept from the last visit is back in the cache (the router waits for it before the
 * first render, so the dashboard opened offline starts from the last lists). Not while prerendering.
 */
export const cacheRestored =
  typeof window === 'undefined'
    ? Promise.resolve()
    : restoreKeptCache().then(() => {
        performance.mark('rr:cache-restored');
        // The changes made with no signal, read back and sent once there is one (offline/send-queue.ts). Its code
        // comes beside the first screen, not before it; until it starts, a change is sent straight away.
        void import('@/offline/send-queue').then(({ sendQueue }) => sendQueue.start(queryClient));
        // Another person signing in on this browser (another tab) replaces this page's person (lib/session-switch.ts).
        followSessionSwitches(queryClient);
      });

/**
 * Wraps the pages that talk to the API (/auth, /contact, /dashboard). Kept out of the public pages' entry so a
 * first visit to / downloads no TanStack Query. The toaster comes with the first toast (lib/toaster-signal.ts), not
 * with these pages: on a slow line it would compete with the dashboard's first screen.
 */
export function Component() {
  return (
    <QueryClientProvider client={queryClient}>
      <Outlet />
    </QueryClientProvider>
  );
}
