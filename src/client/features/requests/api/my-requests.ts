import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { deliveryRequestSchema } from '../../../../shared/marketplace';
import { cursorPaging, fetchPage } from '@/lib/pagination';
import { queryKeys } from '@/lib/query-keys';

/** GET /requests/mine: the user's requests, newest first. */
export function fetchMyRequests(cursor: string | null, signal?: AbortSignal) {
  return fetchPage('/requests/mine', deliveryRequestSchema, cursor, signal);
}

export const myRequestsQueryOptions = infiniteQueryOptions({
  queryKey: queryKeys.myRequests,
  queryFn: ({ pageParam, signal }) => fetchMyRequests(pageParam, signal),
  ...cursorPaging,
  meta: { errorToast: 'Failed to fetch requests' },
});

export function useMyRequests() {
  return useInfiniteQuery(myRequestsQueryOptions);
}
