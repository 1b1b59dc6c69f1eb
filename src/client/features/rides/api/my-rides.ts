import { useInfiniteQuery } from '@tanstack/react-query';
import { rideSchema } from '../../../../shared/marketplace';
import { listQueryOptions } from '@/lib/pagination';
import { queryKeys } from '@/lib/query-keys';

/** GET /rides/mine: the user's rides by departure date, soonest first. */
const myRidesQueryOptions = listQueryOptions({
  path: '/rides/mine',
  item: rideSchema,
  queryKey: queryKeys.myRides,
  errorToast: 'Failed to fetch rides',
});

export function useMyRides() {
  return useInfiniteQuery(myRidesQueryOptions);
}
