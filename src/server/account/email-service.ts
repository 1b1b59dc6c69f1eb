import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import { EMAIL_LINK_EXPIRED, EMAIL_LINK_HOURS, SAME_EMAIL_MESSAGE, type ChangeEmailInput } from '../../shared/account';
import { normalizeEmail } from '../../shared/auth';
import { DomainError } from '../core/domain-error';
import type { Db } from '../db/client';
import { isUniqueViolation } from '../db/errors';
import { emailChanges, passwordResetTokens, profiles, users } from '../db/schema';
import { Outbox } from '../events';
import { enqueue } from '../jobs';
import { enforceLimit, tooManyMessage, type AttemptCounter, type WindowLimit } from '../limits';
import { notify } from '../notifications';
import type { Caller, IdentityChecks } from './identity';

/**
 * Settings 'Email'. A request stores the pending change at once (so the card shows 'Waiting for
 * confirmation of …' whatever the new address is) and queues one EMAIL_CHANGE_JOB; the job alone looks at whether
 * another account has the address (email-mail.ts). The request path does the same work for a free and a taken
 * address, so neither the answer nor its time tells them apart.
 *
 * `email_changes` rows: the request's own row carries the hash of a token nobody knows (the column is required);
 * the job adds a row per link it mails, with the same address and expiry. Every unused, unexpired row of a user is
 * the one pending change; a new request or 'Cancel change' deletes them, a confirmation marks them all used.
 */

/** The job kind; its payload is `{ change_id }` (the request's row). */
export const EMAIL_CHANGE_JOB = 'email-change';

export const LINK_MS = EMAIL_LINK_HOURS * 60 * 60_000;
/** Longer than any token this server makes (43 characters): anything else is unknown without a lookup. */
const TOKEN_MAX = 200;

/** A link's token: 256 bits, URL-safe. Only its SHA-256 (hex) is stored, as with sessions and reset links. */
export const newLinkToken = () => randomBytes(32).toString('base64url');
export const hashLinkToken = (token: string) => createHash('sha256').update(token).digest('hex');

const linkExpired = () => new DomainError('email_link_expired', EMAIL_LINK_EXPIRED);
const emailTaken = () =>
  new DomainError('email_taken', 'An account with this email already exists. Please sign in instead.');

/**
 * Serializes the work on one user's pending change (a request, 'Cancel change', the job adding a link, a
 * confirmation): each takes the user's row lock first, so the statements after it see what the others committed.
 */
export async function lockUser(tx: Db, userId: string): Promise<{ email: string } | undefined> {
  const [row] = await tx
    .select({ email: users.email, suspendedAt: users.suspendedAt, deletedAt: users.deletedAt })
    .from(users)
    .where(eq(users.id, userId))
    .for('no key update');
  return row && !row.suspendedAt && !row.deletedAt ? { email: row.email } : undefined;
}

/** The address a change of `userId` waits to have confirmed: unused and unexpired at `now`; null when none. */
export async function pendingEmailOf(exec: Db, userId: string, now: Date): Promise<string | null> {
  const [row] = await exec
    .select({ newEmail: emailChanges.newEmail })
    .from(emailChanges)
    .where(and(eq(emailChanges.userId, userId), isNull(emailChanges.usedAt), gt(emailChanges.expiresAt, now)))
    .orderBy(desc(emailChanges.createdAt))
    .limit(1);
  return row?.newEmail ?? null;
}

export interface EmailChangeOptions {
  /** The app's clock: link expiry (tests move it). */
  clock: () => Date;
  /** Checks and counts the password (and, with two-factor on and no recent check, a code). */
  identity: Pick<IdentityChecks, 'verify'>;
  /** Runs the confirmation's transaction so that every instance drops its cached copies of the user. */
  auth: { changeUser<T>(userId: string, work: (tx: Db) => Promise<T>): Promise<T> };
  /**
   * Mails to one address, whoever asks: each request mails the new address (a link, or 'already in use' to its
   * owner), so without this any number of accounts could fill a stranger's inbox. Counted in PostgreSQL like
   * forgot-password's per-address limit (decision 009); the same answer whether the address is free or taken.
   */
  mailsPerAddress: { counter: AttemptCounter; limit: WindowLimit };
}

export function createEmailChangeService(db: Db, opts: EmailChangeOptions) {
  /**
   * 'Email': the current address is refused (SAME_EMAIL_MESSAGE), then the password (and code) checked; the pending
   * change is replaced by this one and its job queued in one transaction.
   */
  async function requestChange(caller: Caller, input: ChangeEmailInput): Promise<{ pending_email: string }> {
    const newEmail = normalizeEmail(input.new_email);
    const [me] = await db.select({ email: users.email }).from(users).where(eq(users.id, caller.userId)).limit(1);
    if (me && normalizeEmail(me.email) === newEmail) throw new DomainError('validation_error', SAME_EMAIL_MESSAGE);
    await opts.identity.verify(caller, { password: input.current_password, code: input.code });
    // After the password: a wrong one is refused before it can use up the address's mails.
    const { counter, limit } = opts.mailsPerAddress;
    await enforceLimit(counter, 'email-change-address', newEmail, limit, tooManyMessage);
    const now = opts.clock();
    await db.transaction(async (tx) => {
      await lockUser(tx, caller.userId);
      await tx.delete(emailChanges).where(and(eq(emailChanges.userId, caller.userId), isNull(emailChanges.usedAt)));
      const [row] = await tx
        .insert(emailChanges)
        .values({
          userId: caller.userId,
          newEmail,
          tokenHash: hashLinkToken(newLinkToken()),
          createdAt: now,
          expiresAt: new Date(now.getTime() + LINK_MS),
        })
        .returning({ id: emailChanges.id });
      await enqueue(tx, { kind: EMAIL_CHANGE_JOB, payload: { change_id: row!.id } });
    });
    return { pending_email: newEmail };
  }

  /** 'Cancel change': the pending change's links stop working (nothing pending is fine too). */
  async function cancelChange(userId: string): Promise<void> {
    await db.transaction(async (tx) => {
      await lockUser(tx, userId);
      await tx.delete(emailChanges).where(and(eq(emailChanges.userId, userId), isNull(emailChanges.usedAt)));
    });
  }

  /**
   * The link of the confirmation mail: the account's address becomes the new one, confirmed (issue 37); every pending link of the user
   * and every password-reset link (mailed to the old address) is used up; the old address gets the 'email_changed'
   * notice; every instance shows the new address at once. Sessions stay signed in. The user's row is locked, so of two
   * confirmations with one link exactly one succeeds. Errors: `email_link_expired` (expired, used, unknown,
   * or the account is suspended or deleted), `email_taken` (another account took the address meanwhile).
   */
  async function confirm(token: string): Promise<{ email: string }> {
    if (!token || token.length > TOKEN_MAX) throw linkExpired();
    const tokenHash = hashLinkToken(token);
    const [found] = await db
      .select({ userId: emailChanges.userId })
      .from(emailChanges)
      .where(eq(emailChanges.tokenHash, tokenHash))
      .limit(1);
    if (!found) throw linkExpired();
    try {
      return await opts.auth.changeUser(found.userId, async (tx) => {
        const now = opts.clock();
        const user = await lockUser(tx, found.userId);
        if (!user) throw linkExpired();
        const [change] = await tx
          .select({ newEmail: emailChanges.newEmail, expiresAt: emailChanges.expiresAt, usedAt: emailChanges.usedAt })
          .from(emailChanges)
          .where(eq(emailChanges.tokenHash, tokenHash));
        // Read after the user's lock: another confirmation with this link has committed by now (used).
        if (!change || change.usedAt || change.expiresAt.getTime() <= now.getTime()) throw linkExpired();
        await tx.update(users).set({ email: change.newEmail }).where(eq(users.id, found.userId));
        // The link was opened from the new address's inbox: that confirms it (issue 37).
        await tx.update(profiles).set({ emailVerifiedAt: now }).where(eq(profiles.userId, found.userId));
        await tx
          .update(emailChanges)
          .set({ usedAt: now })
          .where(and(eq(emailChanges.userId, found.userId), isNull(emailChanges.usedAt)));
        await tx
          .update(passwordResetTokens)
          .set({ usedAt: now })
          .where(and(eq(passwordResetTokens.userId, found.userId), isNull(passwordResetTokens.usedAt)));
        const out = new Outbox();
        await notify(tx, out, [
          { userId: found.userId, type: 'email_changed', data: { to: user.email, new_email: change.newEmail } },
        ]);
        await out.flush(tx);
        return { email: change.newEmail };
      });
    } catch (err) {
      // The unique index on lower(email): another account has the address now (signed up or changed to it).
      if (isUniqueViolation(err)) throw emailTaken();
      throw err;
    }
  }

  return { requestChange, cancelChange, confirm };
}

export type EmailChangeService = ReturnType<typeof createEmailChangeService>;
