import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SessionInfo } from '../../../../shared/auth';
import { api } from '@/lib/api-client';

export const sessionQueryKey = ['auth', 'session'] as const;

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
