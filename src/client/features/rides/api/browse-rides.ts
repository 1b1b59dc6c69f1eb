import { useInfiniteQuery } from '@tanstack/react-query';
import { rideSchema } from '../../../../shared/marketplace';
import { listQueryOptions } from '@/lib/pagination';
import { queryKeys } from '@/lib/query-keys';

/** GET /rides/browse: every active ride departing today or later, soonest first, with the poster's name. */
const browseRidesQueryOptions = listQueryOptions({
  path: '/rides/browse',
  item: rideSchema,
  queryKey: queryKeys.browseRides,
});

export function useBrowseRides() {
  return useInfiniteQuery(browseRidesQueryOptions);
}
