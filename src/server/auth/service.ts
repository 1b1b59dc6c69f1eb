import type { Notifications } from '../db/notify';
import type { Db } from '../db/client';
import { createCredentials } from './credentials';
import type { PasswordCost } from './password';
import { createPasswordChange } from './password-change';
import { createSessions, type SessionPolicy } from './sessions';

export { SESSION_REVOKED, type SessionListing, type SessionPolicy } from './sessions';

/**
 * The auth feature as the rest of the app uses it: accounts and passwords (credentials.ts), sessions
 * (sessions.ts) and password changes (password-change.ts), as one object.
 */
export function createAuthService(
  db: Db,
  cost: PasswordCost,
  policy: SessionPolicy,
  notifications?: Notifications,
  clock: () => Date = () => new Date(),
) {
  const sessions = createSessions(db, policy, notifications, clock);
  const { deleteUserSessions: _delete, sparingSession: _sparing, forgetUser: _forget, ...publicSessions } = sessions;
  return {
    ...createCredentials(db, cost),
    ...publicSessions,
    ...createPasswordChange(db, cost, sessions),
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
