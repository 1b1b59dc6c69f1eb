import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import { EMAIL_LINK_HOURS } from '../../shared/account';
import { PAGE_PATHS } from '../../shared/routes';
import type { Db } from '../db/client';
import { emailChanges, users } from '../db/schema';
import type { JobHandler } from '../jobs';
import { composeAccountMail, type Mailer } from '../mail';
import { hashLinkToken, lockUser, newLinkToken } from './email-service';

export const CONFIRM_EMAIL_SUBJECT = 'Confirm your new RuralRoute e-mail address';
export const EMAIL_IN_USE_SUBJECT = 'Your e-mail address is already used on RuralRoute';

const ASKED = `Someone asked to use this e-mail address for their RuralRoute account. If it was you, confirm it with this link (valid for ${EMAIL_LINK_HOURS} hours):`;
const NOT_YOU = "If it wasn't you, ignore this e-mail: nothing changes.";
const IN_USE =
  'Someone tried to use this e-mail address for a RuralRoute account, but a RuralRoute account with this address already exists.';
const SIGN_IN_INSTEAD = 'If this was you, sign in with this address instead:';
const IN_USE_NOT_YOU = "If it wasn't you, ignore this e-mail: your account stays as it is.";

const payloadSchema = z.object({ change_id: z.string().uuid() });

/** The confirmation mail: what was asked, the link and its validity, and what to do if it was not you. */
export const composeConfirmMail = (link: string) => composeAccountMail([{ text: ASKED, link }, { text: NOT_YOU }]);

/** To an address another account already has: no link that changes anything, only the way to sign in. */
export const composeInUseMail = (signInLink: string) =>
  composeAccountMail([{ text: IN_USE }, { text: SIGN_IN_INSTEAD, link: signInLink }, { text: IN_USE_NOT_YOU }]);

/** The request's row while it is pending: unused (not replaced, cancelled or confirmed) and unexpired. */
async function pendingChange(exec: Db, id: string, now: Date) {
  const [row] = await exec
    .select({ userId: emailChanges.userId, newEmail: emailChanges.newEmail, expiresAt: emailChanges.expiresAt })
    .from(emailChanges)
    .where(and(eq(emailChanges.id, id), isNull(emailChanges.usedAt), gt(emailChanges.expiresAt, now)))
    .limit(1);
  return row;
}

/**
 * The handler of EMAIL_CHANGE_JOB (email-service.ts). A change that was replaced, cancelled, confirmed or has
 * expired meanwhile completes without sending. When an account has the address (case-insensitive), its owner is
 * told someone tried to use it (no link); otherwise a new token's hash is stored with the change's address and
 * expiry and the link goes to the new address. Both are security mails: no unsubscribe.
 *
 * A retry (the mail server refused, or the worker died mid-send) adds another token: every one mailed works once
 * until the first confirmation uses them all. The Message-ID is the job's, so a repeat is recognisable.
 */
export function emailChangeMailHandler(
  db: Db,
  mailer: Mailer,
  opts: { appUrl: string; clock: () => Date },
): JobHandler {
  return async (payload, job) => {
    const { change_id: id } = payloadSchema.parse(payload);
    const now = opts.clock();
    const change = await pendingChange(db, id, now);
    if (!change) return;
    const [owner] = await db
      .select({ id: users.id })
      .from(users)
      .where(sql`lower(${users.email}) = ${change.newEmail}`)
      .limit(1);
    const messageId = `rr-email-change-${job.id}`;
    if (owner) {
      const link = `${opts.appUrl}${PAGE_PATHS.auth}`;
      await mailer.send({
        to: change.newEmail,
        subject: EMAIL_IN_USE_SUBJECT,
        ...composeInUseMail(link),
        link,
        messageId,
      });
      return;
    }
    const token = newLinkToken();
    // Under the user's lock: a change cancelled or replaced meanwhile gets no link.
    const stored = await db.transaction(async (tx) => {
      await lockUser(tx, change.userId);
      if (!(await pendingChange(tx, id, now))) return false;
      await tx.insert(emailChanges).values({
        userId: change.userId,
        newEmail: change.newEmail,
        tokenHash: hashLinkToken(token),
        createdAt: now,
        expiresAt: change.expiresAt,
      });
      return true;
    });
    if (!stored) return;
    const link = `${opts.appUrl}${PAGE_PATHS.confirmEmail}?token=${token}`;
    await mailer.send({
      to: change.newEmail,
      subject: CONFIRM_EMAIL_SUBJECT,
      ...composeConfirmMail(link),
      link,
      messageId,
    });
  };
}
