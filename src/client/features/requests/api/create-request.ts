import type { z } from 'zod';
import type { DeliveryRequest, requestInputSchema } from '@shared/marketplace';
import { useCreateItem } from '@/lib/item-mutations';
import { queryKeys } from '@/lib/query-keys';

type RequestValues = z.output<ReturnType<typeof requestInputSchema>>;

/** POST /requests */
export function useCreateRequest() {
  return useCreateItem<RequestValues, DeliveryRequest>({
    path: '/requests',
    created: 'Request created successfully',
    refreshes: [queryKeys.requests, queryKeys.dashboard],
    describe: (request) => `Create request ${request.title}`,
  });
}
