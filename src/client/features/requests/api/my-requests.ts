import { useInfiniteQuery } from '@tanstack/react-query';
import { deliveryRequestSchema } from '../../../../shared/marketplace';
import { listQueryOptions } from '@/lib/pagination';
import { queryKeys } from '@/lib/query-keys';

/** GET /requests/mine: the user's requests, newest first. */
const myRequestsQueryOptions = listQueryOptions({
  path: '/requests/mine',
  item: deliveryRequestSchema,
  queryKey: queryKeys.myRequests,
  errorToast: 'Failed to fetch requests',
});

export function useMyRequests() {
  return useInfiniteQuery(myRequestsQueryOptions);
}
