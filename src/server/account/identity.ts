import { and, eq } from 'drizzle-orm';
import { WRONG_CURRENT_PASSWORD } from '../../shared/account';
import { CODE_REQUIRED, REAUTH_REQUIRED, RECENT_CHECK_MINUTES, WRONG_CODE } from '../../shared/two-factor';
import { DomainError } from '../core/domain-error';
import type { Db } from '../db/client';
import { sessions } from '../db/schema';
import { enforceLimit, tooManyMessage, type AttemptCounter, type WindowLimit } from '../limits';

/**
 * The re-check of sensitive actions (src/shared/two-factor.ts). The session's `verified_at` is read from
 * the database on every check (never from a cache), so a check made through one instance counts on every other.
 */

const RECENT_MS = RECENT_CHECK_MINUTES * 60_000;

/** Who is asking: the user and the session of the request. */
export interface Caller {
  userId: string;
  sessionId: string;
}

/** What the checks need of two-factor (two-factor/second-factor.ts; app-services.ts passes it in). */
export interface SecondFactorCheck {
  isEnabled(userId: string): Promise<boolean>;
  /** A TOTP code, or a recovery code when `recovery`; used codes are spent. */
  verifyCode(userId: string, code: string, opts: { recovery: boolean }): Promise<boolean>;
}

export interface IdentityCheckOptions {
  clock: () => Date;
  /** Whether `password` is the user's (argon2; auth.passwordMatches). */
  passwordMatches(userId: string, password: string): Promise<boolean>;
  secondFactor: SecondFactorCheck;
  counter: AttemptCounter;
  /** Wrong passwords and wrong codes per account (each its own count), like sign-in failures. */
  limit: WindowLimit;
}

export function createIdentityChecks(db: Db, opts: IdentityCheckOptions) {
  async function verifiedAt(caller: Caller): Promise<Date | null> {
    const [row] = await db
      .select({ verifiedAt: sessions.verifiedAt })
      .from(sessions)
      .where(and(eq(sessions.id, caller.sessionId), eq(sessions.userId, caller.userId)))
      .limit(1);
    return row?.verifiedAt ?? null;
  }

  /** Whether the session's last password (+ code) check is within RECENT_CHECK_MINUTES. */
  async function isRecent(caller: Caller): Promise<boolean> {
    const at = await verifiedAt(caller);
    return at !== null && opts.clock().getTime() - at.getTime() < RECENT_MS;
  }

  /** For actions without a password field: 403 `reauth_required` unless the last check is recent. */
  async function requireRecent(caller: Caller): Promise<void> {
    if (!(await isRecent(caller))) throw new DomainError('reauth_required', REAUTH_REQUIRED);
  }

  /** Records a successful check on the session (sign-in's code step, 'Confirm it's you', a password form). */
  async function markVerified(sessionId: string): Promise<void> {
    await db.update(sessions).set({ verifiedAt: opts.clock() }).where(eq(sessions.id, sessionId));
  }

  /**
   * Checks the password and, with two-factor on, a code: always when `codeAlways`, otherwise only when the last
   * check is not recent. Each try is counted before the slow check runs; a right answer forgets the count.
   * Errors: `wrong_password` (`wrongPasswordMessage`), `code_required`, `wrong_code`, `too_many_requests`. On
   * success the session counts as recently checked.
   */
  async function verify(
    caller: Caller,
    input: { password: string; code?: string | undefined },
    options: { codeAlways?: boolean; wrongPasswordMessage?: string } = {},
  ): Promise<void> {
    await enforceLimit(opts.counter, 'password-check', caller.userId, opts.limit, tooManyMessage);
    if (!(await opts.passwordMatches(caller.userId, input.password)))
      throw new DomainError('wrong_password', options.wrongPasswordMessage ?? WRONG_CURRENT_PASSWORD);
    await opts.counter.clear('password-check', caller.userId);
    if (await opts.secondFactor.isEnabled(caller.userId)) {
      const needed = options.codeAlways || !(await isRecent(caller));
      if (needed || input.code) {
        if (!input.code) throw new DomainError('code_required', CODE_REQUIRED);
        await enforceLimit(opts.counter, 'code-check', caller.userId, opts.limit, tooManyMessage);
        if (!(await opts.secondFactor.verifyCode(caller.userId, input.code, { recovery: true })))
          throw new DomainError('wrong_code', WRONG_CODE);
        await opts.counter.clear('code-check', caller.userId);
      }
    }
    await markVerified(caller.sessionId);
  }

  return { isRecent, requireRecent, markVerified, verify };
}

export type IdentityChecks = ReturnType<typeof createIdentityChecks>;
