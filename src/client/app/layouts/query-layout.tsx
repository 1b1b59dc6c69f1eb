import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Outlet } from 'react-router';
import { outbox } from '@/lib/outbox';
import { indexedDbSnapshots, persistQueryCache } from '@/lib/query-persistence';
import { requestToaster } from '@/lib/toaster-signal';
import { queryClient } from '../providers';

/**
 * Settles once what the device kept from the last visit is back in the cache (the router waits for it before the
 * first render, so the dashboard opened offline starts from the last lists). Not while prerendering.
 */
export const cacheRestored =
  typeof window === 'undefined'
    ? Promise.resolve()
    : persistQueryCache(queryClient, indexedDbSnapshots()).restored.then(() => {
        // The changes made with no signal, read back and sent once there is one (lib/outbox.ts).
        outbox.start(queryClient);
      });

/**
 * Wraps the pages that talk to the API (/auth, /contact, /dashboard). Kept out of the public pages' entry so a
 * first visit to / downloads neither TanStack Query nor the toaster.
 */
export function Component() {
  // These pages toast; fetch the toaster now rather than when the first toast is due.
  useEffect(() => requestToaster(), []);
  return (
    <QueryClientProvider client={queryClient}>
      <Outlet />
    </QueryClientProvider>
  );
}
