import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { z } from 'zod';
import { PAGE_PATHS } from '../../shared/routes';
import { EMAIL_VERIFY_EXPIRED, EMAIL_VERIFY_LINK_HOURS, EMAIL_VERIFY_SENDS_PER_HOUR } from '../../shared/verification';
import { DomainError } from '../core/domain-error';
import type { Db } from '../db/client';
import { emailVerifications, profiles, users } from '../db/schema';
import { enqueue, type JobHandler } from '../jobs';
import { enforceLimit, tooManyMessage, type AttemptCounter } from '../limits';
import { composeAccountMail, type Mailer } from '../mail';

/**
 * E-mail verification (issue 37, docs/verification.md 'E-mail'). Sign-up queues EMAIL_VERIFY_JOB in its own
 * transaction; 'Resend email' queues another. The job makes the link's token (only its SHA-256 is stored, with the
 * address it goes to) so no token ever sits in the jobs table. The link works EMAIL_VERIFY_LINK_HOURS, once, and only
 * while the account still has the address it was mailed to. Sign-in is never blocked by it.
 */
export const EMAIL_VERIFY_JOB = 'email-verify';
export const VERIFY_EMAIL_SUBJECT = 'Confirm your e-mail address for RuralRoute';

const LINK_MS = EMAIL_VERIFY_LINK_HOURS * 60 * 60_000;
const HOUR_MS = 60 * 60_000;
/** Longer than any token this server makes (43 characters). */
const TOKEN_MAX = 200;

const newToken = () => randomBytes(32).toString('base64url');
const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const linkExpired = () => new DomainError('email_link_expired', EMAIL_VERIFY_EXPIRED);

const payloadSchema = z.object({ user_id: z.string().uuid(), email: z.string() });

const ASKED = `Welcome to RuralRoute. Please confirm that this is your e-mail address with this link (valid for ${EMAIL_VERIFY_LINK_HOURS} hours):`;
const WHY = 'A confirmed address shows ‘Email verified’ on your profile, and lets us reach you about your deliveries.';
const NOT_YOU = "If you didn't create a RuralRoute account, ignore this e-mail.";

export const composeVerifyMail = (link: string) =>
  composeAccountMail([{ text: ASKED, link }, { text: WHY }, { text: NOT_YOU }]);

/** Queues the confirmation mail of `email` for `userId` (in the caller's transaction: sign-up, 'Resend email'). */
export const queueEmailVerification = (tx: Db, userId: string, email: string) =>
  enqueue(tx, { kind: EMAIL_VERIFY_JOB, payload: { user_id: userId, email } });

/** The account's address and whether it is confirmed, under the user's row lock; undefined when it cannot sign in. */
async function lockAccount(tx: Db, userId: string) {
  const [row] = await tx
    .select({
      email: users.email,
      verifiedAt: profiles.emailVerifiedAt,
      suspendedAt: users.suspendedAt,
      deletedAt: users.deletedAt,
    })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(users.id, userId))
    .for('no key update', { of: users });
  return row && !row.suspendedAt && !row.deletedAt ? row : undefined;
}

export interface EmailVerificationOptions {
  clock: () => Date;
  /** Runs the confirmation so that every instance's session cache shows the address confirmed at once. */
  auth: { changeUser<T>(userId: string, work: (tx: Db) => Promise<T>): Promise<T> };
  counter: AttemptCounter;
}

export function createEmailVerification(db: Db, opts: EmailVerificationOptions) {
  /**
   * 'Resend email': a new link to my current address (earlier ones keep working until one is used or they expire).
   * At most EMAIL_VERIFY_SENDS_PER_HOUR an hour. Already confirmed: 409 `email_already_verified`.
   */
  async function resend(userId: string): Promise<{ email: string }> {
    const [me] = await db
      .select({ email: users.email, verifiedAt: profiles.emailVerifiedAt })
      .from(users)
      .innerJoin(profiles, eq(profiles.userId, users.id))
      .where(eq(users.id, userId))
      .limit(1);
    if (!me) throw new DomainError('unauthenticated', 'Please sign in again.');
    if (me.verifiedAt) throw alreadyVerified();
    await enforceLimit(
      opts.counter,
      'email-verify',
      userId,
      { max: EMAIL_VERIFY_SENDS_PER_HOUR, windowMs: HOUR_MS },
      tooManyMessage,
    );
    await db.transaction(async (tx) => {
      const account = await lockAccount(tx, userId);
      if (!account || account.verifiedAt) return;
      await queueEmailVerification(tx, userId, account.email);
    });
    return { email: me.email };
  }

  /**
   * The link: the account's current address is confirmed, every link of the account used up. Opening a used link of
   * an address that is confirmed still says so (a second click, another device). Errors: `email_link_expired`
   * (expired, used for nothing, unknown, another address than the account's now, suspended or deleted account).
   */
  async function confirm(token: string): Promise<{ email: string }> {
    if (!token || token.length > TOKEN_MAX) throw linkExpired();
    const tokenHash = hashToken(token);
    const [found] = await db
      .select({ userId: emailVerifications.userId })
      .from(emailVerifications)
      .where(eq(emailVerifications.tokenHash, tokenHash))
      .limit(1);
    if (!found) throw linkExpired();
    return opts.auth.changeUser(found.userId, async (tx) => {
      const now = opts.clock();
      const account = await lockAccount(tx, found.userId);
      if (!account) throw linkExpired();
      // Read after the lock: a confirmation with this link that committed meanwhile shows here as used.
      const [link] = await tx
        .select({
          email: emailVerifications.email,
          expiresAt: emailVerifications.expiresAt,
          usedAt: emailVerifications.usedAt,
        })
        .from(emailVerifications)
        .where(eq(emailVerifications.tokenHash, tokenHash));
      if (!link || link.email !== account.email.toLowerCase()) throw linkExpired();
      if (account.verifiedAt) return { email: account.email };
      if (link.usedAt || link.expiresAt.getTime() <= now.getTime()) throw linkExpired();
      await tx.update(profiles).set({ emailVerifiedAt: now }).where(eq(profiles.userId, found.userId));
      await tx
        .update(emailVerifications)
        .set({ usedAt: now })
        .where(and(eq(emailVerifications.userId, found.userId), isNull(emailVerifications.usedAt)));
      return { email: account.email };
    });
  }

  return { resend, confirm };
}

export type EmailVerification = ReturnType<typeof createEmailVerification>;

function alreadyVerified() {
  return new DomainError('email_already_verified', 'Your email address is already confirmed.');
}

/**
 * The handler of EMAIL_VERIFY_JOB: nothing is sent when the address was confirmed or changed meanwhile (the change's
 * own link confirms the new one), or the account cannot sign in. Otherwise a new token's hash is stored with the
 * address and the link mailed. A retry mails another working link; the Message-ID is the job's.
 */
export function emailVerificationMailHandler(
  db: Db,
  mailer: Mailer,
  opts: { appUrl: string; clock: () => Date },
): JobHandler {
  return async (payload, job) => {
    const { user_id: userId, email } = payloadSchema.parse(payload);
    const token = newToken();
    const stored = await db.transaction(async (tx) => {
      const account = await lockAccount(tx, userId);
      if (!account || account.verifiedAt || account.email.toLowerCase() !== email.toLowerCase()) return false;
      const now = opts.clock();
      await tx.insert(emailVerifications).values({
        userId,
        email: email.toLowerCase(),
        tokenHash: hashToken(token),
        createdAt: now,
        expiresAt: new Date(now.getTime() + LINK_MS),
      });
      return true;
    });
    if (!stored) return;
    const link = `${opts.appUrl}${PAGE_PATHS.verifyEmail}?token=${token}`;
    await mailer.send({
      to: email,
      subject: VERIFY_EMAIL_SUBJECT,
      ...composeVerifyMail(link),
      link,
      messageId: `rr-email-verify-${job.id}`,
    });
  };
}
