import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api, ApiError } from '@/lib/api-client';
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

const confirmedSchema = z.object({ email: z.string() });

/** The link's error that means 'expired, used or unknown' (a malformed token reads the same). */
export const isVerifyLinkExpired = (err: unknown) =>
  err instanceof ApiError && (err.code === 'email_link_expired' || err.code === 'validation_error');

/**
 * POST /auth/verify-email { token } -> { email }: the sign-up's link. Works signed out too; a signed-in browser's
 * session is reloaded so the dashboard's banner goes away.
 */
export function useVerifyEmail() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (token: string) =>
      confirmedSchema.parse(await api<unknown>('/auth/verify-email', { method: 'POST', body: { token } })),
    onSuccess: () => void client.invalidateQueries({ queryKey: queryKeys.session }),
  });
}
