import { useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import type { Booking } from '@shared/marketplace';
import { ApiError } from '@/lib/api-client';
import { toastMutationError } from '@/lib/mutation-errors';
import { sendQueue } from '@/offline/send-queue';
import { queryKeys } from '@/lib/query-keys';
import { toastSuccess } from '@/lib/toast';

const ACCEPTED = { title: 'Success', description: 'Request accepted! Check your bookings to manage it.' };

/**
 * POST /bookings: accept a request as its driver (the driver is the session's user). With no signal the offer waits
 * in the send queue under `label`.
 */
function acceptRequest({ requestId, label }: { requestId: string; label: string }) {
  return sendQueue.send<Booking>({
    label,
    method: 'POST',
    path: '/bookings',
    body: { request_id: requestId },
    sentToast: ACCEPTED,
    refresh: [queryKeys.alongRouteCounts, queryKeys.requests, queryKeys.bookings, queryKeys.dashboard],
  });
}

type RequestPages = InfiniteData<{ items: { id: string; accepted_by_me: boolean }[] }>;

/** The accepted request's card in a ride's along-route lists turns into 'Offer sent' in place. */
const markAccepted = (requestId: string) => (old: RequestPages | undefined) =>
  old && {
    ...old,
    pages: old.pages.map((p) => ({
      ...p,
      items: p.items.map((r) => (r.id === requestId ? { ...r, accepted_by_me: true } : r)),
    })),
  };

export function useAcceptRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: acceptRequest,
    onSuccess: (_booking, { requestId }) => {
      toastSuccess(ACCEPTED.title, ACCEPTED.description);
      // Reloading an along-route list would drop the card (offered requests are left out); its count does drop.
      queryClient.setQueriesData<RequestPages>({ queryKey: queryKeys.alongRouteLists }, markAccepted(requestId));
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.alongRouteCounts }),
        // The browse card turns into a disabled 'Offer sent'.
        queryClient.invalidateQueries({ queryKey: queryKeys.requests }),
        queryClient.invalidateQueries({ queryKey: queryKeys.bookings }),
        queryClient.invalidateQueries({ queryKey: queryKeys.dashboard }),
      ]);
    },
    onError: (err) => {
      toastMutationError(err);
      // Spec: when the request is no longer open, the list is reloaded so it disappears; a stale list (accepted in
      // another tab) is reloaded too, so the card shows it is already accepted.
      if (
        err instanceof ApiError &&
        (err.code === 'request_unavailable' || err.code === 'already_accepted' || err.status === 404)
      ) {
        void queryClient.invalidateQueries({ queryKey: queryKeys.requests });
        void queryClient.invalidateQueries({ queryKey: queryKeys.alongRouteLists });
      }
    },
  });
}
