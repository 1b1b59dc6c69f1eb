import { rideSchema } from '@shared/marketplace';
import { listQuery } from '@/lib/pagination';
import { queryKeys } from '@/lib/query-keys';

/** GET /rides/browse: every active ride departing today or later, soonest first, with the poster's name. */
export const useBrowseRides = listQuery({ path: '/rides/browse', item: rideSchema, queryKey: queryKeys.browseRides });
