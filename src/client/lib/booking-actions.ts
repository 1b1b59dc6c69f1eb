import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ACTION_TOASTS, type BookingAction, type CancelReason } from '../../shared/lifecycle';
import { api } from './api-client';
import { toastMutationError } from './mutation-errors';
import { queryKeys } from './query-keys';
import { toastSuccess } from './toast';

/** One lifecycle step on one booking: `POST /bookings/:id/<action>`, with the body that action takes. */
export type BookingActionInput = { bookingId: string } & (
  | { action: Exclude<BookingAction, 'cancel' | 'complete'> }
  | { action: 'cancel'; reason: CancelReason; details: string | null }
  | { action: 'complete'; code: string; photo: File | null }
);

function bodyOf(input: BookingActionInput): unknown {
  switch (input.action) {
    case 'cancel':
      return { reason: input.reason, details: input.details };
    case 'complete': {
      // The optional handoff photo makes this one a file upload.
      const form = new FormData();
      form.set('code', input.code);
      if (input.photo) form.set('photo', input.photo);
      return form;
    }
    default:
      return {};
  }
}

/**
 * The answer (the booking as it now is) is not used: the booking page reloads it through its own checked query,
 * so a success is never reported as a failure because of how it was described.
 */
async function runBookingAction(input: BookingActionInput): Promise<void> {
  const path = `/bookings/${encodeURIComponent(input.bookingId)}/${input.action}`;
  await api<unknown>(path, { method: 'POST', body: bodyOf(input) });
}

/**
 * The booking lifecycle's actions (booking page and request page alike): the action's success toast, the
 * lifecycle's refusal toasts ('That delivery code is not correct.', 'This booking has changed...'), and on any
 * outcome the booking, its request and every list and count that shows them reload, since the server may have
 * moved them whatever this answer was. The mutation stays pending until they have, so the page never offers an
 * action of the old state.
 */
export function useBookingAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: runBookingAction,
    onSuccess: (_data, input) => toastSuccess(ACTION_TOASTS[input.action]),
    onError: toastMutationError,
    onSettled: (_data, _err, input) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.bookingDetail(input.bookingId) }),
        // Every request list and detail (its request's status and offers), every booking list, the counts.
        queryClient.invalidateQueries({ queryKey: queryKeys.requests }),
        queryClient.invalidateQueries({ queryKey: queryKeys.myBookings }),
        queryClient.invalidateQueries({ queryKey: queryKeys.dashboard }),
      ]),
  });
}
