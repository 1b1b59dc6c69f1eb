/** What other features may use of auth: the signed-in user. */
export { useSession } from './api/session';
/** For forms that set a password (settings' 'Password'): the sign-up hint and the resolver with its fallback. */
export { NEW_PASSWORD_HINT, newPasswordResolver } from './lib/new-password';
