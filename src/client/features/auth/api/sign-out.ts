import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@/lib/router';
import { PAGE_PATHS } from '@shared/routes';
import { api } from '@/lib/api-client';
import { forgetSignedInPerson } from '@/lib/signed-out';
import { toastApiError } from '@/lib/toast';

export function useSignOut() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: () => api<void>('/auth/sign-out', { method: 'POST' }),
    onSuccess: () => {
      navigate(PAGE_PATHS.home);
      forgetSignedInPerson(queryClient);
    },
    onError: (err) => toastApiError(err),
  });
}
