import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SessionInfo } from '@shared/auth';
import { api } from '@/lib/api-client';

export const sessionQueryKey = ['auth', 'session'] as const;

/**
 * What the cache holds while the code step waits: a password-only session of an account with two-factor on is
 * signed out for every other purpose (`user` is null, so every guard treats it as signed out), with the step to show.
 */
export const PENDING_SESSION: SessionInfo = { user: null, session: null, two_factor_pending: true };

export const sessionQueryOptions = queryOptions({
  queryKey: sessionQueryKey,
  queryFn: ({ signal }) => api<SessionInfo>('/auth/session', { signal }),
  staleTime: 60_000,
  // The dashboard must not treat a flaky connection as "signed out"; keep trying quietly.
  retry: 3,
});

export function useSession() {
  return useQuery(sessionQueryOptions);
}
