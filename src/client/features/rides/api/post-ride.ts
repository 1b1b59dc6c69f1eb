import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { Ride, rideInputSchema } from '../../../../shared/marketplace';
import { api } from '@/lib/api-client';
import { toastMutationError } from '@/lib/mutation-errors';
import { queryKeys } from '@/lib/query-keys';
import { toastSuccess } from '@/lib/toast';

export type RideValues = z.output<ReturnType<typeof rideInputSchema>>;

/** POST /rides */
export function postRide(input: RideValues) {
  return api<Ride>('/rides', { method: 'POST', body: input });
}

export function usePostRide() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: postRide,
    onSuccess: () => {
      toastSuccess('Ride posted successfully');
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.rides }),
        queryClient.invalidateQueries({ queryKey: queryKeys.dashboard }),
      ]);
    },
    onError: toastMutationError,
  });
}
