import { and, eq, isNotNull, isNull, ne, sql } from 'drizzle-orm';
import { WRONG_CODE } from '../../shared/two-factor';
import { DomainError } from '../core/domain-error';
import type { Db } from '../db/client';
import { recoveryCodes, sessions, twoFactorSecrets } from '../db/schema';
import { Outbox } from '../events';
import { notify } from '../notifications';
import { matchTotp, newTotpSecret, otpauthUrl, replaceRecoveryCodes, spendCode } from './second-factor';

/**
 * Settings 'Two-factor authentication': the stored side of setting it up, turning it on and off, and new
 * recovery codes. What the user's sessions are follows from it (a session at aal1 of a user with two-factor on is
 * pending, auth/service.ts), so turning it on or off goes through auth.changeSessions: every instance drops its
 * cached sessions of the user in the same commit. Re-checks and counting are the caller's (account/two-factor-*).
 */

export const ALREADY_ON = 'Two-factor authentication is already on.';
export const NOT_ON = 'Two-factor authentication is not turned on.';
export const NOT_SET_UP = 'Start the set-up again: scan the new QR code, then enter the code.';

const state = (message: string) => new DomainError('two_factor_state', message);

/**
 * What the settings need of the sessions (auth/sessions.ts changeSessions): `work` runs in a transaction that also
 * tells every instance to drop the user's cached sessions.
 */
export interface SessionChanges {
  changeSessions<T>(userId: string, work: (tx: Db) => Promise<T>): Promise<T>;
}

export function createTwoFactorSettings(db: Db, auth: SessionChanges, clock: () => Date) {
  /** Locks the user's secret row for the rest of the transaction. */
  async function lockSecret(tx: Db, userId: string) {
    const [row] = await tx
      .select({
        secret: twoFactorSecrets.secret,
        enabledAt: twoFactorSecrets.enabledAt,
        lastUsedStep: twoFactorSecrets.lastUsedStep,
      })
      .from(twoFactorSecrets)
      .where(eq(twoFactorSecrets.userId, userId))
      .for('update');
    return row ?? null;
  }

  async function status(userId: string): Promise<{ enabled: boolean; recoveryCodesLeft: number }> {
    const [row] = await db
      .select({
        enabled: sql<boolean>`${twoFactorSecrets.enabledAt} is not null`,
        left: sql<number>`(select count(*)::int from ${recoveryCodes}
          where ${recoveryCodes.userId} = ${userId} and ${recoveryCodes.usedAt} is null)`,
      })
      .from(twoFactorSecrets)
      .where(eq(twoFactorSecrets.userId, userId))
      .limit(1);
    const enabled = Boolean(row?.enabled);
    return { enabled, recoveryCodesLeft: enabled ? Number(row!.left) : 0 };
  }

  /**
   * A new secret for the authenticator app, replacing any unfinished set-up; nothing else changes until `enable`
   * confirms it. 409 when two-factor is already on.
   */
  async function setUp(userId: string, email: string): Promise<{ secret: string; otpauthUrl: string }> {
    const secret = newTotpSecret();
    const stored = await db
      .insert(twoFactorSecrets)
      .values({ userId, secret, createdAt: clock() })
      .onConflictDoUpdate({
        target: twoFactorSecrets.userId,
        set: { secret, lastUsedStep: null, createdAt: clock() },
        where: isNull(twoFactorSecrets.enabledAt),
      })
      .returning({ userId: twoFactorSecrets.userId });
    if (!stored.length) throw state(ALREADY_ON);
    return { secret, otpauthUrl: otpauthUrl(secret, email) };
  }

  /**
   * Confirms the set-up with a code of the new secret. In ONE transaction: two-factor on (the code's step is
   * recorded, so it cannot be used again), new recovery codes, the 'two_factor_enabled' notice and its e-mail, this
   * session at aal2 and just checked, and every other session of the user pending again (aal1: it must give a code)
   * on every instance. Returns the recovery codes, the only time they exist in clear.
   */
  async function enable(userId: string, sessionId: string, code: string): Promise<string[]> {
    return auth.changeSessions(userId, async (tx) => {
      const row = await lockSecret(tx, userId);
      if (!row) throw state(NOT_SET_UP);
      if (row.enabledAt) throw state(ALREADY_ON);
      const now = clock();
      const step = await matchTotp(row.secret, code, now, null);
      if (step === null) throw new DomainError('wrong_code', WRONG_CODE);
      await tx
        .update(twoFactorSecrets)
        .set({ enabledAt: now, lastUsedStep: step })
        .where(eq(twoFactorSecrets.userId, userId));
      const codes = await replaceRecoveryCodes(tx, userId);
      await tx
        .update(sessions)
        .set({ aal: 'aal2', verifiedAt: now })
        .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId)));
      await tx
        .update(sessions)
        .set({ aal: 'aal1', verifiedAt: null })
        .where(and(eq(sessions.userId, userId), ne(sessions.id, sessionId)));
      const out = new Outbox();
      await notify(tx, out, [{ userId, type: 'two_factor_enabled' }]);
      await out.flush(tx);
      return codes;
    });
  }

  /**
   * Turns two-factor off with a current code or an unused recovery code (spent). In ONE transaction: the secret and
   * the recovery codes deleted, the sessions still waiting for a code ended (a password alone never signs them in
   * after the fact), the 'two_factor_disabled' notice and its e-mail. 409 when it is off.
   */
  async function disable(userId: string, code: string): Promise<void> {
    await auth.changeSessions(userId, async (tx) => {
      const row = await lockSecret(tx, userId);
      if (!row?.enabledAt) throw state(NOT_ON);
      if (!(await spendCode(tx, userId, code, { recovery: true, now: clock() })))
        throw new DomainError('wrong_code', WRONG_CODE);
      await tx.delete(twoFactorSecrets).where(eq(twoFactorSecrets.userId, userId));
      await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
      await tx.delete(sessions).where(and(eq(sessions.userId, userId), eq(sessions.aal, 'aal1')));
      const out = new Outbox();
      await notify(tx, out, [{ userId, type: 'two_factor_disabled' }]);
      await out.flush(tx);
    });
  }

  /** New recovery codes; the old ones stop working. 409 when two-factor is off. */
  async function renewRecoveryCodes(userId: string): Promise<string[]> {
    return db.transaction(async (tx) => {
      const [row] = await tx
        .select({ userId: twoFactorSecrets.userId })
        .from(twoFactorSecrets)
        .where(and(eq(twoFactorSecrets.userId, userId), isNotNull(twoFactorSecrets.enabledAt)))
        .for('update');
      if (!row) throw state(NOT_ON);
      return replaceRecoveryCodes(tx, userId);
    });
  }

  return { status, setUp, enable, disable, renewRecoveryCodes };
}

export type TwoFactorSettings = ReturnType<typeof createTwoFactorSettings>;
