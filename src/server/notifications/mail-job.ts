import { and, eq, gt, inArray, isNotNull, max, ne, or, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import {
  isSecurityType,
  MESSAGE_MAIL_INTERVAL_MINUTES,
  NOTIFICATION_TYPE_LABELS,
  notificationLink,
  notificationReceipt,
  notificationSubject,
  notificationText,
  type NotificationType,
} from '../../shared/notifications';
import { ALERT_EMAIL_INTERVAL_MINUTES } from '../../shared/places';
import { PAGE_PATHS } from '../../shared/routes';
import type { Db } from '../db/client';
import { notificationPreferences, notifications, savedSearches, users } from '../db/schema';
import { perTurn, type JobHandler, type JobInfo } from '../jobs';
import type { Mail, Mailer } from '../mail';
import { dataOf } from './row-to-notification';
import { UNSUBSCRIBE_API_PATH, type UnsubscribeTokens } from './unsubscribe';

/** A grouped notification's mails are this far apart at least: a conversation's, or a saved search's matches. */
const intervalMs = (type: NotificationType) =>
  (type === 'search_match' ? ALERT_EMAIL_INTERVAL_MINUTES : MESSAGE_MAIL_INTERVAL_MINUTES) * 60_000;
const PRODUCT = 'RuralRoute';

const payloadSchema = z.object({ notification_id: z.string().uuid() });

export interface NotificationMailOptions {
  /** The app's public address (APP_URL): every link in the mail starts with it. */
  appUrl: string;
  /** The app's clock: the message throttle's time (tests move it). */
  clock: () => Date;
}

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

interface Composed {
  type: NotificationType;
  sentence: string;
  link: string;
  /** A payment notice's receipt: its lines (label, value). */
  receipt?: [string, string][] | null;
  /** The page a person opens to unsubscribe (in the mail's text), and the one-click URL (its header). */
  unsubscribe?: { page: string; oneClick: string };
}

/** The mail's two parts: the product, the sentence, one link into the app, and how to stop this type's e-mails. */
export function composeNotificationMail(c: Composed): Pick<Mail, 'text' | 'html'> {
  const label = NOTIFICATION_TYPE_LABELS[c.type];
  const footer = c.unsubscribe
    ? `You get this e-mail because e-mails about “${label}” are switched on. To stop them, open: ${c.unsubscribe.page}`
    : 'This is a security notice about your account. It is always sent and cannot be switched off.';
  const receipt = c.receipt?.length ? ['Receipt', ...c.receipt.map(([label, value]) => `${label}: ${value}`), ''] : [];
  const text = [c.sentence, '', ...receipt, `Open ${PRODUCT}: ${c.link}`, '', '--', PRODUCT, footer, ''].join('\n');
  const receiptHtml = c.receipt?.length
    ? [
        '<table style="border-collapse: collapse; margin: 8px 0 16px" role="presentation">',
        '<caption style="text-align: left; font-weight: bold; padding-bottom: 4px">Receipt</caption>',
        ...c.receipt.map(
          ([label, value]) =>
            `<tr><th scope="row" style="text-align: left; font-weight: normal; padding: 2px 16px 2px 0; color: #52606d">${escapeHtml(label)}</th><td style="padding: 2px 0">${escapeHtml(value)}</td></tr>`,
        ),
        '</table>',
      ]
    : [];
  const footerHtml = c.unsubscribe
    ? `You get this e-mail because e-mails about “${escapeHtml(label)}” are switched on. ` +
      `<a href="${escapeHtml(c.unsubscribe.page)}">Stop these e-mails</a>.`
    : escapeHtml(footer);
  const html = [
    '<!doctype html>',
    '<html lang="en"><body style="font-family: Arial, sans-serif; font-size: 16px; line-height: 1.5; color: #1f2933">',
    `<p style="font-size: 18px; font-weight: bold; color: #2f6b2f">${PRODUCT}</p>`,
    `<p>${escapeHtml(c.sentence)}</p>`,
    ...receiptHtml,
    `<p><a href="${escapeHtml(c.link)}">Open ${PRODUCT}</a></p>`,
    `<p style="font-size: 14px; color: #52606d">${footerHtml}</p>`,
    '</body></html>',
    '',
  ].join('\n');
  return { text, html };
}

async function searchMailOn(db: Db, searchId: string | undefined): Promise<boolean> {
  if (!searchId) return false;
  const [search] = await db
    .select({ email: savedSearches.email })
    .from(savedSearches)
    .where(eq(savedSearches.id, searchId));
  return search?.email ?? false;
}

/**
 * The handler of NOTIFICATION_EMAIL_JOB: composes and sends one notification's e-mail. It reads everything when it
 * runs, not when the job was queued, and completes without sending when the notification is gone, its optional
 * type was switched off meanwhile, or (grouped ones) it was read, or (saved-search matches) the search is gone or
 * its Email is off. A grouped mail also waits for its group's throttle: when another job mailed this conversation
 * within MESSAGE_MAIL_INTERVAL_MINUTES (this saved search within ALERT_EMAIL_INTERVAL_MINUTES), the job is deferred
 * to the end of that interval (not failed). The notification records which job mailed it: a retry of that job
 * (the mail server refused) sends again instead of waiting for its own throttle. The Message-ID is the job's (with the
 * notification's id), so a repeat after a crash mid-send is recognisable as the same mail.
 */
export function notificationMailHandler(
  db: Db,
  mailer: Mailer,
  tokens: UnsubscribeTokens,
  opts: NotificationMailOptions,
): JobHandler {
  /**
   * Marks the notification as mailed by `job`, unless another job mailed its conversation within the interval:
   * then returns when that interval ends. Jobs of one conversation take an advisory lock, so two instances cannot
   * both see 'nothing mailed yet'.
   */
  async function claimMail(
    row: { id: string; userId: string; type: NotificationType; groupKey: string },
    job: JobInfo,
    now: Date,
  ): Promise<Date | null> {
    const INTERVAL_MS = intervalMs(row.type);
    return db.transaction(async (tx) => {
      await tx.execute(
        sql`select pg_advisory_xact_lock(hashtextextended(${`notification-mail:${row.userId}:${row.groupKey}`}, 0))`,
      );
      const [last] = await tx
        .select({ at: max(notifications.emailedAt) })
        .from(notifications)
        .where(
          and(
            eq(notifications.userId, row.userId),
            eq(notifications.groupKey, row.groupKey),
            isNotNull(notifications.emailedAt),
            gt(notifications.emailedAt, new Date(now.getTime() - INTERVAL_MS)),
            or(isNull(notifications.emailedByJob), ne(notifications.emailedByJob, job.id)),
          ),
        );
      if (last?.at) return new Date(new Date(last.at).getTime() + INTERVAL_MS);
      await tx.update(notifications).set({ emailedAt: now, emailedByJob: job.id }).where(eq(notifications.id, row.id));
      return null;
    });
  }

  /**
   * The notifications of the jobs that start in one turn of the event loop (a claim's jobs start together), read
   * by one statement instead of one each.
   */
  const loadRow = perTurn(
    (ids: string[]) =>
      db
        .select({
          id: notifications.id,
          userId: notifications.userId,
          type: notifications.type,
          data: notifications.data,
          groupKey: notifications.groupKey,
          readAt: notifications.readAt,
          address: users.email,
          off: notificationPreferences.emailOff,
        })
        .from(notifications)
        .innerJoin(users, eq(users.id, notifications.userId))
        .leftJoin(notificationPreferences, eq(notificationPreferences.userId, notifications.userId))
        .where(inArray(notifications.id, [...new Set(ids)])),
    (rows, id) => rows.find((r) => r.id === id),
  );

  return async (payload, job) => {
    const { notification_id: id } = payloadSchema.parse(payload);
    const row = await loadRow(id);
    if (!row) return;
    // The column's CHECK is built from NOTIFICATION_TYPES.
    const type = row.type as NotificationType;
    const security = isSecurityType(type);
    if (!security && row.off?.includes(type)) return;
    // Grouped ones (messages, saved-search matches) read in the app meanwhile need no mail.
    if (row.groupKey && row.readAt) return;
    // A saved search's matches are mailed only while that search exists with its 'Email' switch on.
    if (type === 'search_match' && !(await searchMailOn(db, dataOf(row.data).search_id))) return;

    // Only grouped notifications (messages) have a throttle to check and a mail time to record: the others
    // skip that transaction (three round trips per mail).
    if (row.groupKey) {
      const deferUntil = await claimMail({ ...row, type, groupKey: row.groupKey }, job, opts.clock());
      if (deferUntil) return { deferUntil };
    }

    const data = dataOf(row.data);
    const link = `${opts.appUrl}${notificationLink(type, data)}`;
    let unsubscribe: Composed['unsubscribe'];
    if (!security) {
      const token = encodeURIComponent(await tokens.sign(row.userId, type));
      unsubscribe = {
        page: `${opts.appUrl}${PAGE_PATHS.unsubscribe}?token=${token}`,
        oneClick: `${opts.appUrl}${UNSUBSCRIBE_API_PATH}?token=${token}`,
      };
    }
    await mailer.send({
      // The old address hears of an address change: data.to.
      to: (type === 'email_changed' && data.to) || row.address,
      subject: notificationSubject(type, data),
      ...composeNotificationMail({
        type,
        sentence: notificationText(type, data),
        link,
        unsubscribe,
        receipt: notificationReceipt(type, data),
      }),
      link,
      ...(unsubscribe ? { unsubscribeUrl: unsubscribe.oneClick } : {}),
      // The notification's id too: job ids restart with a new database, Message-IDs must not repeat.
      messageId: `rr-notification-${row.id}-${job.id}`,
    });
  };
}
