import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import type { SessionInfo, SignInInput } from '../../../../shared/auth';
import { MODERATION_ERRORS } from '../../../../shared/moderation';
import { PAGE_PATHS } from '../../../../shared/routes';
import { api, ApiError } from '@/lib/api-client';
import { toastApiError, toastError } from '@/lib/toast';
import { sessionQueryKey } from './session';

export function signIn(input: SignInInput) {
  return api<SessionInfo>('/auth/sign-in', { method: 'POST', body: input });
}

export function useSignIn() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: signIn,
    onSuccess: (session) => {
      queryClient.setQueryData(sessionQueryKey, session);
      navigate(PAGE_PATHS.dashboard);
    },
    onError: (err) => {
      // A suspended account (403) gets the contract's own text, like any refusal with a stable code.
      if (err instanceof ApiError && err.code === 'account_suspended') {
        const { title, message } = MODERATION_ERRORS.account_suspended;
        return toastError(title, message);
      }
      toastApiError(err);
    },
  });
}
