import { rideSchema } from '@shared/marketplace';
import { listQuery } from '@/lib/pagination';
import { queryKeys } from '@/lib/query-keys';

/** GET /rides/mine: the user's rides by departure date, soonest first. */
export const useMyRides = listQuery({
  path: '/rides/mine',
  item: rideSchema,
  queryKey: queryKeys.myRides,
  errorToast: 'Failed to fetch rides',
});
