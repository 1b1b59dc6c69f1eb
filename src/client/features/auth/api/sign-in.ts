import type { SessionInfo, SignInInput } from '@shared/auth';
import { api } from '@/lib/api-client';

/** POST /auth/sign-in (the form: lib/auth-engine.ts). */
export function signIn(input: SignInInput) {
  return api<SessionInfo>('/auth/sign-in', { method: 'POST', body: input });
}
