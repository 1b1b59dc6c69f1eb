import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminReportSchema, MODERATION_TEXT, suspendedAccountSchema } from '@shared/moderation';
import { api } from '@/lib/api-client';
import { toastMutationError } from '@/lib/mutation-errors';
import { listQuery } from '@/lib/pagination';
import { queryKeys } from '@/lib/query-keys';
import { toastSuccess } from '@/lib/toast';

/** GET /admin/reports?status=open: open reports, oldest first (admins only; anyone else 404). */
export const useOpenReports = listQuery({
  path: '/admin/reports',
  item: adminReportSchema,
  queryKey: [...queryKeys.adminReports, 'open'],
  filters: { status: 'open' },
});

const TOASTS = { dismiss: MODERATION_TEXT.reportDismissed, suspend: MODERATION_TEXT.accountSuspended } as const;

/**
 * POST /admin/reports/:id/dismiss or /suspend: the report leaves the open list either way (also after a failure:
 * another admin may have resolved it meanwhile, and the list should say so).
 */
export function useResolveReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: keyof typeof TOASTS }) =>
      api<unknown>(`/admin/reports/${encodeURIComponent(id)}/${action}`, { method: 'POST' }),
    onSuccess: (_data, { action }) => toastSuccess(TOASTS[action]),
    onError: toastMutationError,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.adminReports }),
  });
}

/**
 * GET /admin/suspensions: suspended accounts, most recently suspended first. Under the reports' key, so a
 * suspension from a report refreshes it too.
 */
export const useSuspendedAccounts = listQuery({
  path: '/admin/suspensions',
  // Keyed by the person (PaginatedList keys rows by id).
  item: suspendedAccountSchema.transform((account) => ({ ...account, id: account.user.id })),
  queryKey: [...queryKeys.adminReports, 'suspensions'],
});

/** DELETE /admin/suspensions/:userId: the person can sign in again; both lists are read again either way. */
export function useLiftSuspension() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) =>
      api<unknown>(`/admin/suspensions/${encodeURIComponent(userId)}`, { method: 'DELETE' }),
    onSuccess: () => toastSuccess(MODERATION_TEXT.suspensionLifted),
    onError: toastMutationError,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.adminReports }),
  });
}
