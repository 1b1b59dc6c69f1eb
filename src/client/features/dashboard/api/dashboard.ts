import { queryOptions, useQuery } from '@tanstack/react-query';
import { dashboardSchema } from '../../../../shared/marketplace';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** GET /dashboard: the four counts and the latest activity of the signed-in user. */
async function fetchDashboard(signal?: AbortSignal) {
  return dashboardSchema.parse(await api<unknown>('/dashboard', { signal }));
}

const dashboardQueryOptions = queryOptions({
  queryKey: queryKeys.dashboard,
  queryFn: ({ signal }) => fetchDashboard(signal),
});

export function useDashboard() {
  return useQuery(dashboardQueryOptions);
}
