import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { toastMutationError } from '@/lib/mutation-errors';
import { queryKeys } from '@/lib/query-keys';
import { toastSuccess } from '@/lib/toast';

export const VERIFICATION_SENT_TOAST = 'Email sent. Open the link in it to confirm your address.';

/** POST /account/email-verification: mails a new confirmation link to my current address ('Resend email'). */
export function useResendEmailVerification() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api<unknown>('/account/email-verification', { method: 'POST', body: {} }),
    onSuccess: () => toastSuccess(VERIFICATION_SENT_TOAST),
    onError: (error) => {
      // Confirmed meanwhile (another tab, the link on another device): the session now says so.
      void client.invalidateQueries({ queryKey: queryKeys.session });
      toastMutationError(error);
    },
  });
}
