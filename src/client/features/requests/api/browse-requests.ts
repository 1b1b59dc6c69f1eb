import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { deliveryRequestSchema } from '../../../../shared/marketplace';
import { cursorPaging, fetchPage } from '@/lib/pagination';
import { queryKeys } from '@/lib/query-keys';

/** GET /requests/browse: all open requests, newest first, with the requester's name. */
export function fetchBrowseRequests(cursor: string | null, signal?: AbortSignal) {
  return fetchPage('/requests/browse', deliveryRequestSchema, cursor, signal);
}

export const browseRequestsQueryOptions = infiniteQueryOptions({
  queryKey: queryKeys.browseRequests,
  queryFn: ({ pageParam, signal }) => fetchBrowseRequests(pageParam, signal),
  ...cursorPaging,
});

export function useBrowseRequests() {
  return useInfiniteQuery(browseRequestsQueryOptions);
}
