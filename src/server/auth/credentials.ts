import { and, eq, isNull, sql } from 'drizzle-orm';
import { normalizeEmail, type User } from '../../shared/auth';
import { DomainError } from '../core/domain-error';
import type { Db } from '../db/client';
import { isUniqueViolation } from '../db/errors';
import { planFrom } from '../plans';
import { profiles, twoFactorSecrets, users } from '../db/schema';
import { queueEmailVerification } from './email-verification';
import { recordBrowser } from './new-browser';
import { decoyHasher, hashPassword, verifyPassword, type PasswordCost } from './password';
import { twoFactorOn } from './sessions';

/**
 * Accounts and their passwords: sign-up, the password check of sign-in and of 'Confirm it's you'. An unknown
 * address costs the same argon2 work as a wrong password (a decoy hash), so accounts cannot be found by timing.
 */
export function createCredentials(db: Db, cost: PasswordCost) {
  const decoy = decoyHasher(cost);

  /** Creates the account; `browserId` (the browser cookie's value) becomes its first known browser. */
  async function signUp(
    input: { email: string; password: string; full_name: string },
    browserId: string,
  ): Promise<User> {
    const email = normalizeEmail(input.email);
    const taken = await db
      .select({ id: users.id })
      .from(users)
      .where(sql`lower(${users.email}) = ${email}`)
      .limit(1);
    if (taken.length) throw emailTaken();
    const passwordHash = await hashPassword(input.password, cost);
    try {
      return await db.transaction(async (tx) => {
        const [user] = await tx
          .insert(users)
          .values({ email, passwordHash, ageConfirmedAt: new Date() })
          .returning({ id: users.id, email: users.email });
        if (!user) throw new Error('insert returned no row');
        await tx.insert(profiles).values({ userId: user.id, fullName: input.full_name });
        await recordBrowser(tx, user.id, browserId);
        // The 'Confirm your e-mail address' mail; signing in does not wait for it.
        await queueEmailVerification(tx, user.id, user.email);
        return { ...user, full_name: input.full_name, is_admin: false, email_verified: false, plan: 'free' as const };
      });
    } catch (err) {
      // Two sign-ups for the same address at once: the unique index decides, the loser gets the same answer.
      if (isUniqueViolation(err)) throw emailTaken();
      throw err;
    }
  }

  /**
   * Returns the user when the password matches, null otherwise (same work either way). `suspended` and
   * `twoFactor` (a code is needed next) are only ever told to someone who gave the right password: a wrong one gets
   * the usual null.
   */
  async function verifyCredentials(
    emailInput: string,
    password: string,
  ): Promise<{ user: User; suspended: boolean; twoFactor: boolean } | null> {
    const email = normalizeEmail(emailInput);
    const [row] = await db
      .select({
        id: users.id,
        email: users.email,
        hash: users.passwordHash,
        fullName: profiles.fullName,
        emailVerifiedAt: profiles.emailVerifiedAt,
        plan: profiles.plan,
        role: users.role,
        suspendedAt: users.suspendedAt,
        twoFactorOn: twoFactorSecrets.userId,
      })
      .from(users)
      .innerJoin(profiles, eq(profiles.userId, users.id))
      .leftJoin(twoFactorSecrets, twoFactorOn(users.id))
      .where(sql`lower(${users.email}) = ${email}`)
      .limit(1);
    if (!row) {
      await verifyPassword(await decoy(), password);
      return null;
    }
    const ok = await verifyPassword(row.hash, password);
    if (!ok) return null;
    return {
      user: {
        id: row.id,
        email: row.email,
        full_name: row.fullName,
        is_admin: row.role === 'admin',
        email_verified: row.emailVerifiedAt !== null,
        plan: planFrom(row.plan),
      },
      suspended: row.suspendedAt !== null,
      twoFactor: row.twoFactorOn !== null,
    };
  }

  /**
   * Whether `password` is the user's current one (argon2; an unknown user costs the same and answers false).
   * The caller counts wrong answers (account/service.ts).
   */
  async function passwordMatches(userId: string, password: string): Promise<boolean> {
    const [row] = await db
      .select({ hash: users.passwordHash })
      .from(users)
      .where(and(eq(users.id, userId), isNull(users.suspendedAt)))
      .limit(1);
    if (!row) {
      await verifyPassword(await decoy(), password);
      return false;
    }
    return verifyPassword(row.hash, password);
  }

  return { signUp, verifyCredentials, passwordMatches };
}

function emailTaken() {
  return new DomainError('email_taken', 'An account with this email already exists. Please sign in instead.');
}
