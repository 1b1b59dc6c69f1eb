import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  adminChargebackSchema,
  adminPaymentItemSchema,
  adminPaymentsSchema,
  creditBalanceSchema,
  earnedItemSchema,
  earningsSummarySchema,
  ledgerTrailSchema,
  paidItemSchema,
  payoutSettingsSchema,
  receiptSchema,
  reconciliationSchema,
  type ChargebackOutcome,
  type PayoutSettings,
} from '@shared/payments';
import { api } from '@/lib/api-client';
import { toastMutationError } from '@/lib/mutation-errors';
import { listQuery } from '@/lib/pagination';
import { queryKeys } from '@/lib/query-keys';
import { toastSuccess } from '@/lib/toast';

export const PAYOUTS_ACTIVE_TOAST = 'Payouts active';
export const RECONCILED_TOAST = 'Reconciliation finished';
export const RESERVE_ADDED_TOAST = 'Added to the reserve';
export const CHARGEBACK_RAISED_TOAST = 'Test chargeback raised';
export const CHARGEBACK_CLOSED_TOAST = 'Card dispute closed';

/** GET /payments/paid: what I paid, newest first. */
export const usePaidPayments = listQuery({
  path: '/payments/paid',
  item: paidItemSchema,
  queryKey: queryKeys.paidList,
});
/** GET /payments/earned: each delivery's earning, newest first. */
export const useEarnedPayments = listQuery({
  path: '/payments/earned',
  item: earnedItemSchema,
  queryKey: queryKeys.earnedList,
});

/** GET /payments/earnings: 'In progress', 'Available', 'Paid out'. */
export function useEarnings() {
  return useQuery({
    queryKey: queryKeys.earnings,
    queryFn: async ({ signal }) => earningsSummarySchema.parse(await api<unknown>('/payments/earnings', { signal })),
  });
}

/** GET /payments/credit: my RuralRoute credit, spent before the card. */
export function useCredit() {
  return useQuery({
    queryKey: queryKeys.credit,
    queryFn: async ({ signal }) => creditBalanceSchema.parse(await api<unknown>('/payments/credit', { signal })),
  });
}

/** GET /payments/:id/receipt. */
export function useReceipt(id: string) {
  return useQuery({
    queryKey: queryKeys.receipt(id),
    queryFn: async ({ signal }) =>
      receiptSchema.parse(await api<unknown>(`/payments/${encodeURIComponent(id)}/receipt`, { signal })),
  });
}

const payoutSettingsOptions = queryOptions({
  queryKey: queryKeys.payoutSettings,
  queryFn: async ({ signal }) => payoutSettingsSchema.parse(await api<unknown>('/payments/payouts', { signal })),
});

/** GET /payments/payouts: 'Not set up' / 'Payouts active'. */
export function usePayoutSettings() {
  return useQuery(payoutSettingsOptions);
}

/**
 * POST /payments/payouts: the test provider's routing and account number, or nothing (Stripe: the answer's
 * onboarding_url is Stripe's page that finishes the setup, and the browser goes there).
 */
export function useSetUpPayouts() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: { routing_number?: string; account_number?: string }) =>
      payoutSettingsSchema.parse(await api<unknown>('/payments/payouts', { method: 'POST', body })),
    onSuccess: (settings: PayoutSettings) => {
      client.setQueryData(queryKeys.payoutSettings, settings);
      if (settings.onboarding_url) window.location.assign(settings.onboarding_url);
      else toastSuccess(PAYOUTS_ACTIVE_TOAST);
    },
    onError: toastMutationError,
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.payments }),
  });
}

// ─── Admins ─────────────────────────────────────────────────────────────────────────────────────────────────────────

export function useAdminPayments() {
  return useQuery({
    queryKey: queryKeys.adminPayments,
    queryFn: async ({ signal }) => adminPaymentsSchema.parse(await api<unknown>('/admin/payments', { signal })),
  });
}

export const useAdminPaymentList = listQuery({
  path: '/admin/payments/list',
  item: adminPaymentItemSchema,
  queryKey: [...queryKeys.adminPayments, 'list'],
});

/** One payment's ledger trail, loaded when an admin opens it. */
export function useLedgerTrail(paymentId: string, enabled: boolean) {
  return useQuery({
    queryKey: [...queryKeys.adminPayments, 'trail', paymentId],
    enabled,
    queryFn: async ({ signal }) =>
      ledgerTrailSchema.parse(
        await api<unknown>(`/admin/payments/${encodeURIComponent(paymentId)}/ledger`, { signal }),
      ),
  });
}

export function useReconcile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () =>
      reconciliationSchema.parse(await api<unknown>('/admin/payments/reconcile', { method: 'POST', body: {} })),
    onSuccess: () => toastSuccess(RECONCILED_TOAST),
    onError: toastMutationError,
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.adminPayments }),
  });
}

/** Every card dispute (chargeback), newest first. */
export const useAdminChargebacks = listQuery({
  path: '/admin/payments/chargebacks',
  item: adminChargebackSchema,
  queryKey: [...queryKeys.adminPayments, 'chargebacks'],
});

/** When the background job has applied the bank's events: it runs within about a second of them. */
export const CHARGEBACK_REFETCH_DELAYS_MS = [1_000, 2_000, 4_000, 8_000];

/**
 * The test bank's events are applied by a background job, not by the request that sent them: the admin payments
 * page (totals, payments, card disputes) is reloaded now and a few times over the next seconds.
 */
function refetchAdminPaymentsSoon(client: QueryClient) {
  const refetch = () => void client.invalidateQueries({ queryKey: queryKeys.adminPayments });
  refetch();
  for (const delay of CHARGEBACK_REFETCH_DELAYS_MS) setTimeout(refetch, delay);
}

/** A call to the test provider's bank: its toast once sent, then the page reloaded as the job applies the events. */
function useTestBank<T>(send: (input: T) => Promise<void>, toast: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: () => toastSuccess(toast),
    onError: toastMutationError,
    onSettled: () => refetchAdminPaymentsSoon(client),
  });
}

/** POST /admin/payments/:id/chargeback: the test provider's bank opens a card dispute of the payment. */
export const useRaiseTestChargeback = () =>
  useTestBank(
    (paymentId: string) =>
      api<void>(`/admin/payments/${encodeURIComponent(paymentId)}/chargeback`, { method: 'POST', body: {} }),
    CHARGEBACK_RAISED_TOAST,
  );

/** POST /admin/payments/chargebacks/:id/close: the test bank decides the card dispute, won or lost. */
export const useCloseTestChargeback = () =>
  useTestBank(
    ({ id, outcome }: { id: string; outcome: ChargebackOutcome }) =>
      api<void>(`/admin/payments/chargebacks/${encodeURIComponent(id)}/close`, { method: 'POST', body: { outcome } }),
    CHARGEBACK_CLOSED_TOAST,
  );

/** POST /admin/payments/reserve: the platform's own money into the Delivery Guarantee's reserve. */
export function useAddToReserve() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { amount: string; note: string }) =>
      api<unknown>('/admin/payments/reserve', { method: 'POST', body }),
    onSuccess: () => toastSuccess(RESERVE_ADDED_TOAST),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.adminPayments }),
  });
}
