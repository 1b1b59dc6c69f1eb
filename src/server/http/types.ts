import type { AuthContext } from '../core/auth-context';

/** The session cookie's name and rules for this environment (see http/session.ts). */
export interface SessionCookie {
  name: string;
  production: boolean;
}

export interface AppEnv {
  Variables: {
    auth: AuthContext | null;
    /** A session waiting for its second factor (AuthContext.session.pending); `auth` is then null. */
    pendingAuth: AuthContext | null;
    requestId: string;
    sessionCookie: SessionCookie;
    /** Set by a sensitive route (http/sensitive.ts): a repeat of its request passes the identity check first. */
    sensitive?: boolean;
    /** Set by a route whose answer holds a secret shown once (http/sensitive.ts): that answer is never stored. */
    shownOnce?: boolean;
  };
}
