import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  adminIdCheckSchema,
  ID_APPROVED_TOAST,
  ID_REJECTED_TOAST,
  ID_SENT_TOAST,
  idCheckStateSchema,
  type IdCheckDecision,
} from '@shared/verification';
import { api, ApiError } from '@/lib/api-client';
import { toastMutationError } from '@/lib/mutation-errors';
import { listQuery } from '@/lib/pagination';
import { queryKeys } from '@/lib/query-keys';
import { toastError, toastSuccess } from '@/lib/toast';

const idCheckQueryOptions = queryOptions({
  queryKey: queryKeys.idCheck,
  queryFn: async ({ signal }) => idCheckStateSchema.parse(await api<unknown>('/account/id-check', { signal })),
});

/** GET /account/id-check: my ID check's state (never the photos). */
export function useIdCheckState() {
  return useQuery(idCheckQueryOptions);
}

/** What 'Send for checking' sends: the two photos, and the consent given. */
export interface IdCheckInput {
  front: File;
  selfie: File;
}

/**
 * POST /account/id-check (multipart). The answer is my new state, put in the cache at once. A refusal with its own
 * words (one waiting already, 'You can try again on ...', a photo the server would not take) toasts them as they are;
 * my state reloads either way, since it may have moved (another tab, a moderator).
 */
export function useSendIdCheck() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ front, selfie }: IdCheckInput) => {
      const form = new FormData();
      form.append('consent', 'true');
      form.append('front', front);
      form.append('selfie', selfie);
      return idCheckStateSchema.parse(await api<unknown>('/account/id-check', { method: 'POST', body: form }));
    },
    onSuccess: (state) => {
      client.setQueryData(queryKeys.idCheck, state);
      toastSuccess(ID_SENT_TOAST);
    },
    onError: (err) => {
      void client.invalidateQueries({ queryKey: queryKeys.idCheck });
      if (err instanceof ApiError && err.code !== 'validation_error') toastError('Error', err.message);
      else toastMutationError(err);
    },
  });
}

// ─── Moderators ────────────────────────────────────────────────────────────────────────────────────────────────────

/** GET /admin/verifications: ID checks waiting for a decision, oldest first (admins only; anyone else 404). */
export const useAdminIdChecks = listQuery({
  path: '/admin/verifications',
  item: adminIdCheckSchema,
  queryKey: queryKeys.adminVerifications,
});

/**
 * POST /admin/verifications/:id/decision. The queue reloads whatever the answer: the check leaves it once decided,
 * by this moderator or (409) by another one a moment ago.
 */
export function useDecideIdCheck() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: IdCheckDecision & { id: string }) =>
      api<unknown>(`/admin/verifications/${encodeURIComponent(id)}/decision`, { method: 'POST', body }),
    onSuccess: (_, input) => toastSuccess(input.decision === 'approve' ? ID_APPROVED_TOAST : ID_REJECTED_TOAST),
    onError: (err) => {
      if (err instanceof ApiError && err.code === 'id_check_state') toastError('Error', err.message);
      else toastMutationError(err);
    },
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.adminVerifications }),
  });
}
