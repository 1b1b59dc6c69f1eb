import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { queryClient } from '@/app/providers';
import { PENDING_SESSION, sessionQueryKey, useSession } from '../api/session';
import { TwoFactorStep } from './two-factor-step';

export { cacheRestored } from '@/app/layouts/query-layout';

/** Tells /auth when the step is over without the dashboard: 'Cancel', or the pending session gone (back to the form). */
function LeaveWhenNotPending({ onLeave }: { onLeave: () => void }) {
  const session = useSession();
  const over = session.data !== undefined && session.data.two_factor_pending !== true;
  useEffect(() => {
    if (over) onLeave();
  }, [over, onLeave]);
  return null;
}

/**
 * /auth's 'Authentication code' step with the query cache it works in: loaded only when a sign-in waits for its
 * code, so the page's first scripts carry neither (issue 34).
 */
export function TwoFactorPanel({ onLeave }: { onLeave: () => void }) {
  // The page learnt of the pending sign-in from the server: the cache says so too, as after the password.
  useState(() => {
    if (queryClient.getQueryData(sessionQueryKey) === undefined) {
      queryClient.setQueryData(sessionQueryKey, PENDING_SESSION);
    }
  });
  return (
    <QueryClientProvider client={queryClient}>
      <LeaveWhenNotPending onLeave={onLeave} />
      <TwoFactorStep />
    </QueryClientProvider>
  );
}
