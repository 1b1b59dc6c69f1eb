import { useMutation } from '@tanstack/react-query';
import { MODERATION_TEXT, type ReportInput } from '@shared/moderation';
import { api } from '@/lib/api-client';
import { toastMutationError } from '@/lib/mutation-errors';
import { toastSuccess } from '@/lib/toast';

/** POST /reports: 201. Nothing on screen changes, so nothing reloads. */
export function useReport() {
  return useMutation({
    mutationFn: (input: ReportInput) => api<unknown>('/reports', { method: 'POST', body: input }),
    onSuccess: () => toastSuccess(MODERATION_TEXT.reportSent),
    onError: toastMutationError,
  });
}
