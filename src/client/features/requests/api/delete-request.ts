import { useDeleteItem } from '@/lib/item-mutations';
import { queryKeys } from '@/lib/query-keys';

/** DELETE /requests/:id */
export function useDeleteRequest() {
  return useDeleteItem({
    path: '/requests',
    deleted: 'Request deleted successfully',
    failed: 'Failed to delete request',
    // Bookings of a deleted request turn 'cancelled', so the bookings list and counts change too.
    refreshes: [queryKeys.requests, queryKeys.bookings, queryKeys.dashboard],
  });
}
