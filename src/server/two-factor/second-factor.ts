import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { generateSecret, generateURI, verify } from 'otplib';
import { RECOVERY_CODE_COUNT, recoveryCodeSchema, totpCodeSchema } from '../../shared/two-factor';
import type { Db } from '../db/client';
import { recoveryCodes, twoFactorSecrets } from '../db/schema';

/**
 * TOTP and recovery codes (src/shared/two-factor.ts). One step of clock drift either way is accepted; a
 * code is accepted once (the step is recorded, and a code of that step or an earlier one is refused), so a code
 * read over someone's shoulder cannot be used again.
 */

const PERIOD_SECONDS = 30;
const ISSUER = 'RuralRoute';
/** Recovery codes use base32's letters and digits: no 0/1/8/9, nothing to confuse with O, I, l or B. */
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

export const newTotpSecret = (): string => generateSecret();

export const otpauthUrl = (secret: string, email: string): string =>
  generateURI({ issuer: ISSUER, label: email, secret });

/** The step of a code that `secret` produces at `now` (within one step of drift), after `afterStep`; else null. */
export async function matchTotp(
  secret: string,
  code: string,
  now: Date,
  afterStep: number | null,
): Promise<number | null> {
  const parsed = totpCodeSchema.safeParse(code);
  if (!parsed.success) return null;
  const result = await verify({
    secret,
    token: parsed.data,
    epoch: Math.floor(now.getTime() / 1000),
    epochTolerance: PERIOD_SECONDS,
    ...(afterStep === null ? {} : { afterTimeStep: afterStep }),
  });
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}

const hashCode = (normalized: string) => createHash('sha256').update(normalized).digest('hex');

/** RECOVERY_CODE_COUNT new codes 'xxxxx-xxxxx' (50 random bits each). */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const bytes = randomBytes(10);
    const chars = Array.from(bytes, (b) => BASE32[b % 32]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/**
 * Replaces the user's recovery codes with new ones (inside the caller's transaction) and returns them: the only
 * time they exist in clear.
 */
export async function replaceRecoveryCodes(tx: Db, userId: string): Promise<string[]> {
  const codes = newRecoveryCodes();
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await tx.insert(recoveryCodes).values(codes.map((code) => ({ userId, codeHash: hashCode(code) })));
  return codes;
}

/**
 * Checks a TOTP code, or (when `recovery` allows it) a recovery code, of a user with two-factor on, inside the
 * caller's transaction. A TOTP code records its step under the row's lock, so of two requests with one code only
 * one succeeds; a recovery code is marked used the same way. False for a wrong or reused code, or when two-factor
 * is off.
 */
export async function spendCode(
  tx: Db,
  userId: string,
  code: string,
  opts: { recovery: boolean; now: Date },
): Promise<boolean> {
  const [row] = await tx
    .select({ secret: twoFactorSecrets.secret, lastUsedStep: twoFactorSecrets.lastUsedStep })
    .from(twoFactorSecrets)
    .where(and(eq(twoFactorSecrets.userId, userId), isNotNull(twoFactorSecrets.enabledAt)))
    .for('update');
  if (!row) return false;
  const step = await matchTotp(row.secret, code, opts.now, row.lastUsedStep);
  if (step !== null) {
    await tx.update(twoFactorSecrets).set({ lastUsedStep: step }).where(eq(twoFactorSecrets.userId, userId));
    return true;
  }
  if (!opts.recovery) return false;
  const parsed = recoveryCodeSchema.safeParse(code);
  if (!parsed.success) return false;
  const used = await tx
    .update(recoveryCodes)
    .set({ usedAt: opts.now })
    .where(
      and(
        eq(recoveryCodes.userId, userId),
        eq(recoveryCodes.codeHash, hashCode(parsed.data)),
        isNull(recoveryCodes.usedAt),
      ),
    )
    .returning({ id: recoveryCodes.id });
  return used.length > 0;
}

export function createSecondFactor(db: Db, clock: () => Date) {
  /** Whether the user has two-factor on (a confirmed secret). */
  async function isEnabled(userId: string, exec: Db = db): Promise<boolean> {
    const [row] = await exec
      .select({ on: sql<number>`1` })
      .from(twoFactorSecrets)
      .where(and(eq(twoFactorSecrets.userId, userId), isNotNull(twoFactorSecrets.enabledAt)))
      .limit(1);
    return Boolean(row);
  }

  /** spendCode in a transaction of its own. */
  async function verifyCode(userId: string, code: string, opts: { recovery: boolean }): Promise<boolean> {
    return db.transaction((tx) => spendCode(tx, userId, code, { ...opts, now: clock() }));
  }

  /** Unused recovery codes of the user. */
  async function recoveryCodesLeft(userId: string): Promise<number> {
    const [row] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(recoveryCodes)
      .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
    return Number(row?.n ?? 0);
  }

  return { isEnabled, verifyCode, recoveryCodesLeft, clock };
}

export type SecondFactor = ReturnType<typeof createSecondFactor>;
