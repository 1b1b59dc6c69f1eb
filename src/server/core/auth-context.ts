import type { User } from '../../shared/auth';

/**
 * Who is calling: what the auth service resolves a session token to and what the HTTP layer keeps on the request.
 * It lives here, below both, so http/ never imports the auth feature.
 */
export interface AuthContext {
  user: User;
  session: {
    id: string;
    aal: 'aal1' | 'aal2';
    lastSeenAt: Date;
    expiresAt: Date;
    /**
     * The password was right but the user has two-factor on and this session has given no code yet (aal1): it is
     * signed out for everything but the code step, GET /auth/session and sign-out (http/session.ts).
     */
    pending: boolean;
  };
}
