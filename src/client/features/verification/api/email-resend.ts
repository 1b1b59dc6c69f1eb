import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { toastApiError, toastSuccess } from '@/lib/toast';

export const VERIFICATION_SENT_TOAST = 'Email sent. Open the link in it to confirm your address.';

/**
 * POST /account/email-verification: mails a new confirmation link to my current address ('Resend email'). Its own
 * file, with no schema code: the dashboard's first screen shows it (the banner).
 */
export function useResendEmailVerification() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api<unknown>('/account/email-verification', { method: 'POST', body: {} }),
    onSuccess: () => toastSuccess(VERIFICATION_SENT_TOAST),
    onError: (error) => {
      // Confirmed meanwhile (another tab, the link on another device): the session now says so.
      void client.invalidateQueries({ queryKey: queryKeys.session });
      toastApiError(error);
    },
  });
}
