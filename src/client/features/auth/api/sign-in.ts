import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import type { SessionInfo, SignInInput } from '@shared/auth';
import { PAGE_PATHS } from '@shared/routes';
import { api } from '@/lib/api-client';
import { toastApiError } from '@/lib/toast';
import { PENDING_SESSION, sessionQueryKey } from './session';

export function signIn(input: SignInInput) {
  return api<SessionInfo>('/auth/sign-in', { method: 'POST', body: input });
}

/**
 * POST /auth/sign-in. With two-factor on the answer is `two_factor_pending`: the session is recorded as pending
 * (signed out) and /auth shows the 'Authentication code' step instead of opening the dashboard.
 */
export function useSignIn() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: signIn,
    onSuccess: (session) => {
      if (session.two_factor_pending) {
        queryClient.setQueryData(sessionQueryKey, PENDING_SESSION);
        return;
      }
      queryClient.setQueryData(sessionQueryKey, session);
      navigate(PAGE_PATHS.dashboard);
    },
    onError: (err) => toastApiError(err),
  });
}
