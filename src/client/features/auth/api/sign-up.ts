import { useMutation } from '@tanstack/react-query';
import type { SignUpInput, User } from '@shared/auth';
import { api } from '@/lib/api-client';
import { toastSubmitError, toastSuccess } from '@/lib/toast';

export function signUp(input: SignUpInput) {
  return api<{ user: User }>('/auth/sign-up', { method: 'POST', body: input });
}

export function useSignUp(onCreated: (email: string) => void) {
  return useMutation({
    mutationFn: signUp,
    onSuccess: ({ user }) => {
      toastSuccess('Success!', 'Account created successfully. You can now sign in.');
      onCreated(user.email);
    },
    onError: toastSubmitError,
  });
}
