import { queryOptions, useQuery } from '@tanstack/react-query';
import { requestDetailSchema } from '@shared/lifecycle';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** GET /requests/:id: the owner's view of one request with its pending offers (anyone else: 404). */
async function fetchRequestDetail(id: string, signal?: AbortSignal) {
  return requestDetailSchema.parse(await api<unknown>(`/requests/${encodeURIComponent(id)}`, { signal }));
}

export const requestDetailQueryOptions = (id: string) =>
  queryOptions({
    queryKey: queryKeys.requestDetail(id),
    queryFn: ({ signal }) => fetchRequestDetail(id, signal),
  });

export function useRequestDetail(id: string) {
  return useQuery(requestDetailQueryOptions(id));
}
