import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { rideSchema } from '../../../../shared/marketplace';
import { cursorPaging, fetchPage } from '@/lib/pagination';
import { queryKeys } from '@/lib/query-keys';

/** GET /rides/browse: every active ride departing today or later, soonest first, with the poster's name. */
export function fetchBrowseRides(cursor: string | null, signal?: AbortSignal) {
  return fetchPage('/rides/browse', rideSchema, cursor, signal);
}

export const browseRidesQueryOptions = infiniteQueryOptions({
  queryKey: queryKeys.browseRides,
  queryFn: ({ pageParam, signal }) => fetchBrowseRides(pageParam, signal),
  ...cursorPaging,
});

export function useBrowseRides() {
  return useInfiniteQuery(browseRidesQueryOptions);
}
