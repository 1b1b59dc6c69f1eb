import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Outlet } from 'react-router';
import { requestToaster } from '@/lib/toaster-signal';
import { queryClient } from '../providers';

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
