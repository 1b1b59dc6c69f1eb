import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { DeliveryRequest, requestInputSchema } from '../../../../shared/marketplace';
import { api } from '@/lib/api-client';
import { toastMutationError } from '@/lib/mutation-errors';
import { queryKeys } from '@/lib/query-keys';
import { toastSuccess } from '@/lib/toast';

export type RequestValues = z.output<ReturnType<typeof requestInputSchema>>;

/** POST /requests */
export function createRequest(input: RequestValues) {
  return api<DeliveryRequest>('/requests', { method: 'POST', body: input });
}

export function useCreateRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createRequest,
    onSuccess: () => {
      toastSuccess('Request created successfully');
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.requests }),
        queryClient.invalidateQueries({ queryKey: queryKeys.dashboard }),
      ]);
    },
    onError: toastMutationError,
  });
}
