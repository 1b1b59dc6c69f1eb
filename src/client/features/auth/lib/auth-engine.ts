import type { SessionInfo, SignInInput, SignUpInput } from '@shared/auth';
import { cacheRestored } from '@/app/layouts/query-layout';
import { queryClient } from '@/app/providers';
import { PENDING_SESSION, sessionQueryKey } from '../api/session';
import { signIn } from '../api/sign-in';
import { signUp } from '../api/sign-up';

/**
 * What the sign-in and sign-up forms need beyond their markup: the shared schemas (zod), the API client and the
 * app's query cache. One chunk, fetched when someone first focuses a field of /auth (useSchemaForm), so the page's
 * first scripts stay small on a slow line (issue 34).
 */
export { signInSchema, signUpFieldsSchema } from '@shared/auth';

/**
 * POST /auth/sign-in; the session goes into the app's cache (restored from the device first, as the dashboard
 * expects). With two-factor on the answer is `two_factor_pending`: recorded as pending (signed out), and /auth shows
 * the 'Authentication code' step instead of opening the dashboard.
 */
export async function sendSignIn(input: SignInInput): Promise<SessionInfo> {
  await cacheRestored;
  const session = await signIn(input);
  queryClient.setQueryData(sessionQueryKey, session.two_factor_pending ? PENDING_SESSION : session);
  return session;
}

/** POST /auth/sign-up: the account's e-mail, to sign in with. The common-password rule is the server's. */
export async function sendSignUp(input: SignUpInput): Promise<string> {
  const { user } = await signUp(input);
  return user.email;
}
