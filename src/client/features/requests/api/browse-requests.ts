import { deliveryRequestSchema } from '@shared/marketplace';
import { listQuery } from '@/lib/pagination';
import { queryKeys } from '@/lib/query-keys';

/** GET /requests/browse: all open requests, newest first, with the requester's name. */
export const useBrowseRequests = listQuery({
  path: '/requests/browse',
  item: deliveryRequestSchema,
  queryKey: queryKeys.browseRequests,
});
