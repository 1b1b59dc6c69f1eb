import { useMutation, useQuery } from '@tanstack/react-query';
import { deliveryRequestSchema, pageSchema, type DeliveryRequest } from '@shared/marketplace';
import { ASK_SENT_TOAST, rideAskSchema } from '@shared/places';
import { api } from '@/lib/api-client';
import { toastMutationError } from '@/lib/mutation-errors';
import { sendQueue } from '@/offline/send-queue';
import { queryKeys } from '@/lib/query-keys';
import { toastSuccess } from '@/lib/toast';

const PAGE_SIZE = 50;

/**
 * My open requests, for 'Ask to carry something' (GET /requests/mine holds every status: the open ones are kept).
 * Loaded when the dialog opens, under My Requests' key so a new or deleted request reloads it.
 */
export function useMyOpenRequests(enabled: boolean) {
  return useQuery({
    queryKey: [...queryKeys.myRequests, 'open'],
    enabled,
    queryFn: async ({ signal }): Promise<DeliveryRequest[]> => {
      const open: DeliveryRequest[] = [];
      let cursor: string | null = null;
      do {
        const params = new URLSearchParams({ limit: String(PAGE_SIZE) });
        if (cursor) params.set('cursor', cursor);
        const page = pageSchema(deliveryRequestSchema).parse(
          await api<unknown>(`/requests/mine?${params.toString()}`, { signal }),
        );
        open.push(...page.items.filter((r) => r.status === 'open'));
        cursor = page.next_cursor;
      } while (cursor);
      return open;
    },
  });
}

/** POST /rides/:id/asks { request_id }: the driver is told, and sees the request first along that route. */
export function useAskToCarry(rideId: string) {
  return useMutation({
    // With no signal the ask waits in the send queue ('Waiting to send') and is sent when the signal returns.
    mutationFn: (requestId: string) =>
      sendQueue
        .send<unknown>({
          label: 'Ask a driver to carry your request',
          method: 'POST',
          path: `/rides/${encodeURIComponent(rideId)}/asks`,
          body: { request_id: requestId },
          sentToast: { title: ASK_SENT_TOAST },
          refresh: [],
        })
        .then((body) => rideAskSchema.parse(body)),
    onSuccess: () => toastSuccess(ASK_SENT_TOAST),
    onError: toastMutationError,
  });
}
