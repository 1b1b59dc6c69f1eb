import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { toastDeleteError } from '@/lib/mutation-errors';
import { toastSuccess } from '@/lib/toast';

/** DELETE /requests/:id */
export function deleteRequest(id: string) {
  return api<void>(`/requests/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function useDeleteRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteRequest,
    onSuccess: () => toastSuccess('Request deleted successfully'),
    onError: (err) => toastDeleteError(err, 'Failed to delete request'),
    // Bookings of a deleted request turn 'cancelled', so the bookings list and counts change too.
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.requests }),
        queryClient.invalidateQueries({ queryKey: queryKeys.bookings }),
        queryClient.invalidateQueries({ queryKey: queryKeys.dashboard }),
      ]),
  });
}
