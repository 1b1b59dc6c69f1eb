/** What other features may use of auth: the signed-in user. */
export { useSession } from './api/session';
