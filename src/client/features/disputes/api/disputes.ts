import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  adminDisputeSchema,
  DISPUTE_DECIDED_TOAST,
  DISPUTE_REPORTED_TOAST,
  DISPUTE_RESPONDED_TOAST,
  type DisputeDecision,
  type DisputeReason,
  type DisputeState,
} from '@shared/disputes';
import { bookingDetailSchema, type BookingDetail } from '@shared/lifecycle';
import { api } from '@/lib/api-client';
import { toastMutationError } from '@/lib/mutation-errors';
import { listQuery } from '@/lib/pagination';
import { queryKeys } from '@/lib/query-keys';
import { toastSuccess } from '@/lib/toast';

/** What 'Report a problem' sends; `item_value` only for a Delivery Guarantee claim. */
export interface ReportInput {
  reason: DisputeReason;
  details: string;
  item_value: string | null;
  photos: File[];
}

/** What 'Response' sends. */
export interface ResponseInput {
  details: string;
  photos: File[];
}

/** The multipart body: each field once, `photos` repeated (the server reads them all under that one name). */
function formOf(fields: Record<string, string | null>, photos: File[]): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) if (value !== null) form.append(name, value);
  for (const photo of photos) form.append('photos', photo);
  return form;
}

/** Lists and counts that show a booking's state or its payment's: a report may put the money 'On hold'. */
const listsOf = [queryKeys.myBookings, queryKeys.dashboard, queryKeys.payments, queryKeys.notifications];

/**
 * A dispute write on a booking: the answer is the booking as it now is, checked and put in the page's cache (the page
 * shows it at once). A refusal (already reported, the window closed, already answered) toasts its own text and reloads
 * the booking, which says where it stands; the lists reload either way.
 */
function useBookingDisputeWrite<T>(bookingId: string, path: string, toast: string, body: (input: T) => FormData) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: T): Promise<BookingDetail> =>
      bookingDetailSchema.parse(
        await api<unknown>(`/bookings/${encodeURIComponent(bookingId)}/${path}`, { method: 'POST', body: body(input) }),
      ),
    onSuccess: (booking) => {
      client.setQueryData(queryKeys.bookingDetail(bookingId), booking);
      toastSuccess(toast);
    },
    onError: (err) => {
      toastMutationError(err);
      void client.invalidateQueries({ queryKey: queryKeys.bookingDetail(bookingId), exact: true });
    },
    onSettled: () => Promise.all(listsOf.map((queryKey) => client.invalidateQueries({ queryKey }))),
  });
}

/** POST /bookings/:id/dispute (multipart): 'Report a problem'. */
export function useReportProblem(bookingId: string) {
  return useBookingDisputeWrite<ReportInput>(bookingId, 'dispute', DISPUTE_REPORTED_TOAST, (input) =>
    formOf({ reason: input.reason, details: input.details, item_value: input.item_value }, input.photos),
  );
}

/** POST /bookings/:id/dispute/response (multipart): the other person's one response. */
export function useRespondToDispute(bookingId: string) {
  return useBookingDisputeWrite<ResponseInput>(bookingId, 'dispute/response', DISPUTE_RESPONDED_TOAST, (input) =>
    formOf({ details: input.details }, input.photos),
  );
}

// ─── Moderators ────────────────────────────────────────────────────────────────────────────────────────────────────

const adminDisputes = (state: DisputeState) =>
  listQuery({
    path: '/admin/disputes',
    item: adminDisputeSchema,
    queryKey: [...queryKeys.adminDisputes, state],
    filters: { state },
  });

/** GET /admin/disputes?state=open: open disputes, oldest first (admins only; anyone else 404). */
export const useOpenDisputes = adminDisputes('open');
/** GET /admin/disputes?state=resolved: decided disputes. */
export const useResolvedDisputes = adminDisputes('resolved');

export interface DecisionInput {
  id: string;
  decision: DisputeDecision;
  note: string;
  /** Dollars as typed: the refund of a split, the amount of an approved claim. */
  amount?: string;
}

/**
 * POST /admin/disputes/:id/decision. Both lists reload whatever the answer (another moderator may have decided it
 * meanwhile: 409 dispute_already_decided), and so does the payments overview, whose totals the decision moved.
 */
export function useDecideDispute() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, ...body }: DecisionInput) =>
      adminDisputeSchema.parse(
        await api<unknown>(`/admin/disputes/${encodeURIComponent(id)}/decision`, { method: 'POST', body }),
      ),
    onSuccess: () => toastSuccess(DISPUTE_DECIDED_TOAST),
    onError: toastMutationError,
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: queryKeys.adminDisputes }),
        client.invalidateQueries({ queryKey: queryKeys.adminPayments }),
      ]),
  });
}
