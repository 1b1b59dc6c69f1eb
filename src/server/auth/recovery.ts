import { randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import { RESET_LINK_EXPIRED, RESET_LINK_MINUTES } from '../../shared/account';
import { normalizeEmail } from '../../shared/auth';
import { PAGE_PATHS } from '../../shared/routes';
import { DomainError } from '../core/domain-error';
import type { Db } from '../db/client';
import { passwordResetTokens, users } from '../db/schema';
import { Outbox } from '../events';
import { enqueue, type JobHandler } from '../jobs';
import { composeAccountMail, type Mailer } from '../mail';
import { notify } from '../notifications';
import { hashPassword, type PasswordCost } from './password';
import { hashToken } from './tokens';

/**
 * Forgotten password. `POST /auth/forgot-password` only validates and queues one PASSWORD_RESET_JOB,
 * whether or not an account has the address: the answer and its time tell nothing. The job looks the account up
 * and mails a link with a one-time token; only the token's SHA-256 is stored. The link is valid for
 * RESET_LINK_MINUTES, once: a reset marks every token of the account used and ends every session.
 */

/** The job kind; its payload is `{ email }` (normalized). */
export const PASSWORD_RESET_JOB = 'password-reset';
export const RESET_MAIL_SUBJECT = 'Reset your RuralRoute password';

const PRODUCT = 'RuralRoute';
const LINK_MS = RESET_LINK_MINUTES * 60_000;
/** Longer than any token this server makes (43 characters): anything else is unknown without a lookup. */
const TOKEN_MAX = 200;

const payloadSchema = z.object({ email: z.string().min(1) });

export interface RecoveryOptions {
  /** The app's clock: token expiry (tests move it). */
  clock: () => Date;
  /** argon2 cost of the new password (the auth service's). */
  cost: PasswordCost;
  /** Ends every session of the user on every instance (auth.revokeUserSessions). */
  revokeUserSessions: (userId: string) => Promise<void>;
}

const linkExpired = () => new DomainError('reset_link_expired', RESET_LINK_EXPIRED);

export function createRecoveryService(db: Db, opts: RecoveryOptions) {
  /** A usable token's row: known, unused, unexpired, of an account neither suspended nor deleted. */
  async function usable(token: string): Promise<{ userId: string } | null> {
    if (!token || token.length > TOKEN_MAX) return null;
    const [row] = await db
      .select({ userId: passwordResetTokens.userId })
      .from(passwordResetTokens)
      .innerJoin(users, eq(users.id, passwordResetTokens.userId))
      .where(
        and(
          eq(passwordResetTokens.tokenHash, hashToken(token)),
          isNull(passwordResetTokens.usedAt),
          gt(passwordResetTokens.expiresAt, opts.clock()),
          isNull(users.suspendedAt),
          isNull(users.deletedAt),
        ),
      )
      .limit(1);
    return row ?? null;
  }

  /**
   * Queues the lookup and the mail: the same work for every address (one insert), so the answer takes the same
   * time whether an account has it or not.
   */
  async function requestReset(email: string): Promise<void> {
    await db.transaction(async (tx) => {
      await enqueue(tx, { kind: PASSWORD_RESET_JOB, payload: { email: normalizeEmail(email) } });
    });
  }

  /** True only for a known, unused, unexpired token (of an account neither suspended nor deleted). */
  async function checkToken(token: string): Promise<boolean> {
    return (await usable(token)) !== null;
  }

  /**
   * Sets the new password, marks every token of the account used, writes the 'password_changed' notice (in-app and
   * e-mail), and after the commit ends every session of the account. An expired, used or unknown token:
   * `reset_link_expired`. The token's row is locked, so of two resets with one token exactly one succeeds.
   */
  async function resetPassword(input: { token: string; new_password: string }): Promise<void> {
    // Refused before argon2: an unknown token costs no hashing (the check is repeated under the lock below).
    if (!(await usable(input.token))) throw linkExpired();
    const passwordHash = await hashPassword(input.new_password, opts.cost);
    const tokenHash = hashToken(input.token);
    const userId = await db.transaction(async (tx) => {
      const now = opts.clock();
      const [row] = await tx
        .select({
          userId: passwordResetTokens.userId,
          expiresAt: passwordResetTokens.expiresAt,
          usedAt: passwordResetTokens.usedAt,
        })
        .from(passwordResetTokens)
        .where(eq(passwordResetTokens.tokenHash, tokenHash))
        .for('update');
      // After waiting for another reset's lock, PostgreSQL returns the row as that reset left it (used).
      if (!row || row.usedAt || row.expiresAt.getTime() <= now.getTime()) throw linkExpired();
      const [changed] = await tx
        .update(users)
        .set({ passwordHash })
        .where(and(eq(users.id, row.userId), isNull(users.suspendedAt), isNull(users.deletedAt)))
        .returning({ id: users.id });
      if (!changed) throw linkExpired();
      await tx
        .update(passwordResetTokens)
        .set({ usedAt: now })
        .where(and(eq(passwordResetTokens.userId, row.userId), isNull(passwordResetTokens.usedAt)));
      const out = new Outbox();
      await notify(tx, out, [{ userId: row.userId, type: 'password_changed' }]);
      await out.flush(tx);
      return row.userId;
    });
    // Every session, this browser's included (a reset is done signed out), on every instance.
    await opts.revokeUserSessions(userId);
  }

  return { requestReset, checkToken, resetPassword };
}

export type RecoveryService = ReturnType<typeof createRecoveryService>;

const validity =
  RESET_LINK_MINUTES % 60 === 0
    ? `${RESET_LINK_MINUTES / 60} hour${RESET_LINK_MINUTES === 60 ? '' : 's'}`
    : `${RESET_LINK_MINUTES} minutes`;
const ASKED = `Someone asked to reset the password of your ${PRODUCT} account. If it was you, choose a new password with this link (valid for ${validity}):`;
const NOT_YOU = "If it wasn't you, ignore this e-mail: your password stays the same.";

/** The mail's two parts: the product, what happened, the link, and what to do if it was not you. */
export function composeResetMail(link: string): { text: string; html: string } {
  return composeAccountMail([{ text: ASKED, link }, { text: NOT_YOU }]);
}

/**
 * The handler of PASSWORD_RESET_JOB: looks the account up (case-insensitive); for an account that exists and is
 * neither suspended nor deleted it stores a new token's hash and sends the link directly (a security mail: no
 * unsubscribe). An unknown, suspended or deleted address completes without sending anything.
 *
 * A retry of the job (the mail server refused, or the worker died mid-send) makes another token: harmless, the
 * earlier one is never mailed (or, if it was, both work once until the first reset marks them all used, and
 * expire within the hour). The Message-ID is the job's, so a repeat of the same job's mail is recognisable.
 */
export function passwordResetHandler(db: Db, mailer: Mailer, opts: { appUrl: string; clock: () => Date }): JobHandler {
  return async (payload, job) => {
    const { email } = payloadSchema.parse(payload);
    const token = randomBytes(32).toString('base64url');
    // Under the account's row lock, as the deletion takes it: a deletion that commits first leaves no account with
    // the address (a lock waited for reads the row as committed), and one that commits after deletes this token.
    const user = await db.transaction(async (tx) => {
      const [found] = await tx
        .select({ id: users.id, email: users.email })
        .from(users)
        .where(
          and(
            sql`lower(${users.email}) = ${normalizeEmail(email)}`,
            isNull(users.suspendedAt),
            isNull(users.deletedAt),
          ),
        )
        .limit(1)
        .for('no key update');
      if (!found) return undefined;
      const now = opts.clock();
      await tx.insert(passwordResetTokens).values({
        userId: found.id,
        tokenHash: hashToken(token),
        createdAt: now,
        expiresAt: new Date(now.getTime() + LINK_MS),
      });
      return found;
    });
    if (!user) return;
    const link = `${opts.appUrl}${PAGE_PATHS.resetPassword}?token=${token}`;
    await mailer.send({
      to: user.email,
      subject: RESET_MAIL_SUBJECT,
      ...composeResetMail(link),
      link,
      messageId: `rr-reset-${job.id}`,
    });
  };
}
