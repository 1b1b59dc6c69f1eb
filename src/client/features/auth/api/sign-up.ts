import type { SignUpInput, User } from '@shared/auth';
import { api } from '@/lib/api-client';

/** POST /auth/sign-up (the form: lib/auth-engine.ts). */
export function signUp(input: SignUpInput) {
  return api<{ user: User }>('/auth/sign-up', { method: 'POST', body: input });
}
