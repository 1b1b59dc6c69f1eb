import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@/lib/router';
import { PASSWORD_UPDATED_TOAST, type ForgotPasswordInput, type ResetPasswordInput } from '@shared/account';
import { PAGE_PATHS } from '@shared/routes';
import { api, ApiError } from '@/lib/api-client';
import { toastSubmitError, toastSuccess } from '@/lib/toast';
import { forgetSignedInPerson } from '@/lib/signed-out';

/** POST /auth/forgot-password: always the same answer, whether an account exists or not. */
export function useForgotPassword() {
  return useMutation({
    mutationFn: (input: ForgotPasswordInput) =>
      api<{ message: string }>('/auth/forgot-password', { method: 'POST', body: input }),
    onError: toastSubmitError,
  });
}

/** GET /auth/reset-password/check: whether the e-mailed link can still be used (checked as the page opens). */
export function useResetLinkCheck(token: string) {
  return useQuery({
    queryKey: ['auth', 'reset-link', token],
    queryFn: ({ signal }) =>
      api<{ valid: boolean }>(`/auth/reset-password/check?token=${encodeURIComponent(token)}`, { signal }),
    enabled: token.length > 0,
    // One link, one answer: no need to keep it once the page is left.
    gcTime: 0,
    // This page has no offline banner: with no connection it says so and offers 'Try again' instead of waiting.
    networkMode: 'always',
  });
}

/** The server's answer to an expired, used or unknown link. */
export const isResetLinkExpired = (err: unknown) => err instanceof ApiError && err.code === 'reset_link_expired';

/**
 * POST /auth/reset-password. Every session of the account ends on the server, this browser's included: forget what
 * was loaded, record the signed-out state, and open the Sign In tab with the toast. An expired link is shown on
 * the page itself (no toast).
 */
export function useResetPassword() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: (input: ResetPasswordInput) => api<void>('/auth/reset-password', { method: 'POST', body: input }),
    onSuccess: () => {
      forgetSignedInPerson(queryClient);
      toastSuccess(PASSWORD_UPDATED_TOAST);
      navigate(PAGE_PATHS.auth);
    },
    onError: (err) => {
      if (!isResetLinkExpired(err)) toastSubmitError(err);
    },
  });
}
