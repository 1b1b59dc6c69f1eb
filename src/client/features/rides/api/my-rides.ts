import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { rideSchema } from '../../../../shared/marketplace';
import { cursorPaging, fetchPage } from '@/lib/pagination';
import { queryKeys } from '@/lib/query-keys';

/** GET /rides/mine: the user's rides by departure date, soonest first. */
export function fetchMyRides(cursor: string | null, signal?: AbortSignal) {
  return fetchPage('/rides/mine', rideSchema, cursor, signal);
}

export const myRidesQueryOptions = infiniteQueryOptions({
  queryKey: queryKeys.myRides,
  queryFn: ({ pageParam, signal }) => fetchMyRides(pageParam, signal),
  ...cursorPaging,
  meta: { errorToast: 'Failed to fetch rides' },
});

export function useMyRides() {
  return useInfiniteQuery(myRidesQueryOptions);
}
