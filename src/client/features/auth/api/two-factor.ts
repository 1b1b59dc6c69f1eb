import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@/lib/router';
import type { SessionInfo } from '@shared/auth';
import type { SignInCodeInput } from '@shared/two-factor';
import { PAGE_PATHS } from '@shared/routes';
import { api, ApiError } from '@/lib/api-client';
import { sessionQueryKey } from './session';

const SIGNED_OUT = { user: null, session: null };

/**
 * POST /auth/two-factor { code } or { recovery_code } with the pending session's cookie -> the session at aal2: the
 * sign-in is complete, as after a password without two-factor. A 401 means the pending session is gone (expired,
 * signed out elsewhere): back to the sign-in form. The step shows the other errors.
 */
export function useSignInCode() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: (input: SignInCodeInput) => api<SessionInfo>('/auth/two-factor', { method: 'POST', body: input }),
    onSuccess: (session) => {
      queryClient.setQueryData(sessionQueryKey, session);
      navigate(PAGE_PATHS.dashboard);
    },
    onError: (err) => {
      if (err instanceof ApiError && err.status === 401) queryClient.setQueryData(sessionQueryKey, SIGNED_OUT);
    },
  });
}

/**
 * 'Cancel': signs the pending session out (POST /auth/sign-out), back to the sign-in form. The form returns even if
 * the call fails: the pending session then simply expires.
 */
export function useCancelSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<void>('/auth/sign-out', { method: 'POST' }),
    onSettled: () => queryClient.setQueryData(sessionQueryKey, SIGNED_OUT),
  });
}
