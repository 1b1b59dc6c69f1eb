import { useInfiniteQuery } from '@tanstack/react-query';
import { deliveryRequestSchema } from '../../../../shared/marketplace';
import { listQueryOptions } from '@/lib/pagination';
import { queryKeys } from '@/lib/query-keys';

/** GET /requests/browse: all open requests, newest first, with the requester's name. */
const browseRequestsQueryOptions = listQueryOptions({
  path: '/requests/browse',
  item: deliveryRequestSchema,
  queryKey: queryKeys.browseRequests,
});

export function useBrowseRequests() {
  return useInfiniteQuery(browseRequestsQueryOptions);
}
