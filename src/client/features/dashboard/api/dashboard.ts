import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** GET /dashboard: the four counts and the latest activity of the signed-in user. */
async function fetchDashboard(signal?: AbortSignal) {
  // The contract (and zod with it) loads beside the request: not in the dashboard's first scripts, which on a slow
  // line must be small (docs/weak-signal.md).
  const [body, { dashboardSchema }] = await Promise.all([
    api<unknown>('/dashboard', { signal }),
    import('@shared/marketplace'),
  ]);
  return dashboardSchema.parse(body);
}

const dashboardQueryOptions = queryOptions({
  queryKey: queryKeys.dashboard,
  queryFn: ({ signal }) => fetchDashboard(signal),
});

export function useDashboard() {
  return useQuery(dashboardQueryOptions);
}
