import { useDeleteItem } from '@/lib/item-mutations';
import { queryKeys } from '@/lib/query-keys';

/** DELETE /rides/:id */
export function useDeleteRide() {
  return useDeleteItem({
    path: '/rides',
    deleted: 'Ride deleted successfully',
    failed: 'Failed to delete ride',
    refreshes: [queryKeys.rides, queryKeys.dashboard],
  });
}
