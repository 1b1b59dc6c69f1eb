import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import type { SessionInfo, SignInInput } from '../../../../shared/auth';
import { PAGE_PATHS } from '../../../../shared/routes';
import { api } from '@/lib/api-client';
import { toastApiError } from '@/lib/toast';
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
    onError: (err) => toastApiError(err),
  });
}
