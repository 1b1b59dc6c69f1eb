import type { User } from '../../shared/auth';

/**
 * Who is calling: what the auth service resolves a session token to and what the HTTP layer keeps on the request.
 * It lives here, below both, so http/ never imports the auth feature.
 */
export interface AuthContext {
  user: User;
  session: { id: string; aal: 'aal1' | 'aal2'; lastSeenAt: Date; expiresAt: Date };
}
