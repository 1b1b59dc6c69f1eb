import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { Outbox } from '../events';
import { notify } from '../notifications';
import { hashPassword, type PasswordCost } from './password';
import type { Sessions } from './sessions';

/** A new password for a signed-in user (Settings 'Password'); a reset by e-mail link is recovery.ts'. */
export function createPasswordChange(db: Db, cost: PasswordCost, sessions: Sessions) {
  /**
   * Sets a new password. In ONE transaction: the new hash, the end of every other session of the user (all of
   * them when `keepSessionId` is omitted; every instance is told on commit), the 'password_changed' notification
   * with its always-sent security e-mail. Returns how many sessions ended.
   */
  async function changePassword(userId: string, newPassword: string, keepSessionId?: string): Promise<number> {
    const passwordHash = await hashPassword(newPassword, cost);
    sessions.forgetUser(userId);
    const ended = await db.transaction(async (tx) => {
      await tx.update(users).set({ passwordHash }).where(eq(users.id, userId));
      const count = await sessions.deleteUserSessions(tx, userId, sessions.sparingSession(keepSessionId));
      const out = new Outbox();
      await notify(tx, out, [{ userId, type: 'password_changed' }]);
      await out.flush(tx);
      return count;
    });
    sessions.forgetUser(userId);
    return ended;
  }

  return { changePassword };
}
