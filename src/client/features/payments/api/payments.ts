import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
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
  type PayoutSettings,
} from '@shared/payments';
import { api } from '@/lib/api-client';
import { toastMutationError } from '@/lib/mutation-errors';
import { listQuery } from '@/lib/pagination';
import { queryKeys } from '@/lib/query-keys';
import { toastSuccess } from '@/lib/toast';

export const PAYOUTS_ACTIVE_TOAST = 'Payouts active';
export const RECONCILED_TOAST = 'Reconciliation finished';

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
