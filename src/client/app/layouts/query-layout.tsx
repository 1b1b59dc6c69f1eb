import { QueryClientProvider } from '@tanstack/react-query';
import { Outlet } from '@/lib/router';
import { indexedDbSnapshots, persistQueryCache } from '@/offline/query-persistence';
import { followSessionSwitches } from '@/lib/session-switch';
import { queryClient } from '../providers';

/**
 * Settles once what the device kept from the last visit is back in the cache (the router waits for it before the
 * first render, so the dashboard opened offline starts from the last lists). Not while prerendering.
 */
export const cacheRestored =
  typeof window === 'undefined'
    ? Promise.resolve()
    : persistQueryCache(queryClient, indexedDbSnapshots()).restored.then(() => {
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
