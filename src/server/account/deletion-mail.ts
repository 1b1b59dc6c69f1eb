import { z } from 'zod';
import type { Db } from '../db/client';
import { forgetPayload, MAX_ATTEMPTS, payloadForgotten, type JobHandler } from '../jobs';
import type { Mailer } from '../mail';

/**
 * The confirmation of 'Delete account': queued in the deletion's transaction with the old address as
 * its payload `{ email }`, sent directly (a security mail: no unsubscribe), then the payload is emptied, so once
 * the mail went no table keeps the address. Until then (and, if every attempt fails, until the sweep of failed
 * jobs) the queued job holds it.
 */
export const ACCOUNT_DELETED_JOB = 'account-deleted';
export const ACCOUNT_DELETED_SUBJECT = 'Your RuralRoute account was deleted';

const PRODUCT = 'RuralRoute';
const sentences = (supportEmail: string) => [
  `Your ${PRODUCT} account was deleted, as you asked.`,
  'Your name, e-mail address, password, rides and requests are gone. Your messages and reviews stay for the other people, shown as written by “Deleted user”.',
  'You can sign up again with this address at any time: it will be a new account.',
  `If you did not delete your account, write to us at ${supportEmail}.`,
];

const payloadSchema = z.object({ email: z.string().min(3) });

export interface AccountDeletedMailOptions {
  /** The app's public address (APP_URL): the mail's one link. */
  appUrl: string;
  /** Where to write if it was not them (SUPPORT_EMAIL, a plain address by the env's rule). */
  supportEmail: string;
}

/** APP_URL is an http(s) address from the configuration; this keeps it inside its attribute whatever it holds. */
const attribute = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The mail's two parts: the product and what happened. Nothing in it comes from the person. */
export function composeAccountDeletedMail(opts: AccountDeletedMailOptions): { text: string; html: string } {
  const lines = sentences(opts.supportEmail);
  const text = [PRODUCT, '', ...lines.flatMap((s) => [s, '']), opts.appUrl, ''].join('\n');
  const html = [
    '<!doctype html>',
    '<html lang="en"><body style="font-family: Arial, sans-serif; font-size: 16px; line-height: 1.5; color: #1f2933">',
    `<p style="font-size: 18px; font-weight: bold; color: #2f6b2f">${PRODUCT}</p>`,
    ...lines.map((s) => `<p>${s}</p>`),
    `<p><a href="${attribute(opts.appUrl)}">${PRODUCT}</a></p>`,
    '</body></html>',
    '',
  ].join('\n');
  return { text, html };
}

/**
 * The handler of ACCOUNT_DELETED_JOB. A repeat after the payload was emptied has nothing to do. A failure's
 * message is stored with the job (last_error): the address is taken out of it, and on the last attempt the
 * payload is emptied too, so a job kept as failed holds no address either.
 */
export function accountDeletedMailHandler(db: Db, mailer: Mailer, opts: AccountDeletedMailOptions): JobHandler {
  return async (payload, job) => {
    if (payloadForgotten(payload)) return;
    const { email } = payloadSchema.parse(payload);
    try {
      await mailer.send({
        to: email,
        subject: ACCOUNT_DELETED_SUBJECT,
        ...composeAccountDeletedMail(opts),
        link: opts.appUrl,
        messageId: `rr-account-deleted-${job.id}`,
      });
    } catch (err) {
      if (job.attempt >= MAX_ATTEMPTS) await forgetPayload(db, job.id);
      const message = err instanceof Error ? err.message : String(err);
      throw new Error(message.split(email).join('<address>'));
    }
    await forgetPayload(db, job.id);
  };
}
