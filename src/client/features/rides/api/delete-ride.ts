import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { toastDeleteError } from '@/lib/mutation-errors';
import { toastSuccess } from '@/lib/toast';

/** DELETE /rides/:id */
export function deleteRide(id: string) {
  return api<void>(`/rides/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function useDeleteRide() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteRide,
    onSuccess: () => toastSuccess('Ride deleted successfully'),
    onError: (err) => toastDeleteError(err, 'Failed to delete ride'),
    // Also after a failure: a 404 means the ride is already gone, and the list should say so.
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.rides }),
        queryClient.invalidateQueries({ queryKey: queryKeys.dashboard }),
      ]),
  });
}
