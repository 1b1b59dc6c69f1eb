import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ACTION_TOASTS, type BookingAction, type CancelReason } from '@shared/lifecycle';
import { toastMutationError } from './mutation-errors';
import { sendQueue, type Change } from '../offline/send-queue';
import { queryKeys } from './query-keys';
import { toastSuccess } from './toast';

/** One lifecycle step on one booking: `POST /bookings/:id/<action>`, with the body that action takes. */
export type BookingActionInput = { bookingId: string } & (
  | { action: Exclude<BookingAction, 'cancel' | 'complete'> }
  | { action: 'cancel'; reason: CancelReason; details: string | null }
  | { action: 'complete'; code: string; photo: File | null }
);

/** What 'Waiting to send' calls a step kept for later. */
const ACTION_NAMES: Record<BookingAction, string> = {
  choose: 'Choose this driver',
  decline: 'Decline the offer',
  withdraw: 'Withdraw the offer',
  cancel: 'Cancel the booking',
  pickup: 'Mark as picked up',
  complete: 'Complete the delivery',
  receive: 'Confirm the delivery',
};

/** The body that action takes; the handover's code and optional photo go as a file upload. */
function bodyOf(input: BookingActionInput): Pick<Change, 'body' | 'form'> {
  switch (input.action) {
    case 'cancel':
      return { body: { reason: input.reason, details: input.details } };
    case 'complete':
      return { form: [['code', input.code], ...(input.photo ? [['photo', input.photo] as [string, Blob]] : [])] };
    default:
      return { body: {} };
  }
}

/** Every list and detail a step may change: the booking, its request's status and offers, the lists, the counts. */
export const changedBy = (bookingId: string) => [
  queryKeys.bookingDetail(bookingId),
  queryKeys.requests,
  queryKeys.myBookings,
  queryKeys.dashboard,
];

/**
 * The answer (the booking as it now is) is not used: the booking page reloads it through its own checked query,
 * so a success is never reported as a failure because of how it was described. With no signal the step waits in
 * the send queue (a handover at a door with no signal is sent once there is one).
 */
async function runBookingAction(input: BookingActionInput): Promise<void> {
  await sendQueue.send<unknown>({
    label: ACTION_NAMES[input.action],
    method: 'POST',
    path: `/bookings/${encodeURIComponent(input.bookingId)}/${input.action}`,
    ...bodyOf(input),
    sentToast: { title: ACTION_TOASTS[input.action] },
    refresh: changedBy(input.bookingId),
  });
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
      Promise.all(changedBy(input.bookingId).map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}
