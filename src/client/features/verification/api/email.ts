import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api, ApiError } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export { useResendEmailVerification, VERIFICATION_SENT_TOAST } from './email-resend';

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
