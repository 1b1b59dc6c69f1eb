import { deliveryRequestSchema } from '@shared/marketplace';
import { listQuery } from '@/lib/pagination';
import { queryKeys } from '@/lib/query-keys';

/** GET /requests/mine: the user's requests, newest first. */
export const useMyRequests = listQuery({
  path: '/requests/mine',
  item: deliveryRequestSchema,
  queryKey: queryKeys.myRequests,
  errorToast: 'Failed to fetch requests',
});
