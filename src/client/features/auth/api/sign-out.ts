import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { PAGE_PATHS } from '../../../../shared/routes';
import { api } from '@/lib/api-client';
import { toastApiError } from '@/lib/toast';
import { sessionQueryKey } from './session';

export function useSignOut() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: () => api<void>('/auth/sign-out', { method: 'POST' }),
    onSuccess: () => {
      navigate(PAGE_PATHS.home);
      // Forget everything the signed-in user loaded, then record the signed-out state.
      queryClient.clear();
      queryClient.setQueryData(sessionQueryKey, { user: null, session: null });
    },
    onError: (err) => toastApiError(err),
  });
}
