import { sql } from 'drizzle-orm';
import {
  MESSAGE_MAIL_DELAY_SECONDS,
  MESSAGE_MAIL_INTERVAL_MINUTES,
  SECURITY_NOTIFICATION_TYPES,
  type NotificationData,
  type NotificationType,
} from '../../shared/notifications';
import type { Db } from '../db/client';
import { rowsOf } from '../db/result-rows';
import { preparedStatement } from '../db/prepared';
import type { Outbox } from '../events';
import { toNotification } from './row-to-notification';

/** The job kind of a notification's e-mail; its payload is `{ notification_id }` (mail-job.ts composes it). */
export const NOTIFICATION_EMAIL_JOB = 'notification-email';

/** One notification to write (see `notify`). */
export interface NewNotification {
  /** Who receives it. */
  userId: string;
  type: NotificationType;
  /** Who caused it: their name is stored as `actor_name`. */
  actorId?: string | null;
  /** The booking it is about: its id is stored, and its request's id and title. */
  bookingId?: string | null;
  /** The request it is about (when there is no booking): its id and title are stored. */
  requestId?: string | null;
  /** Anything else (reason, cause, count ...); a `title` or `actor_name` here wins over the looked-up ones. */
  data?: NotificationData;
}

const MESSAGE_BUCKET_SECONDS = MESSAGE_MAIL_INTERVAL_MINUTES * 60;

/** Grouped while unread: a conversation's messages, and the matches of one saved search. */
function groupKey(n: NewNotification): string | null {
  if (n.type === 'message' && n.bookingId) return `message:${n.bookingId}`;
  if (n.type === 'search_match' && n.data?.search_id) return `search:${n.data.search_id}`;
  return null;
}

/**
 * What rr_notify takes besides the items (migration 0042): the types mailed whatever the settings, a grouped
 * notification's mail delay and its interval. A booking's move function passes them on too.
 */
export const NOTIFY_SETTINGS = {
  security: [...SECURITY_NOTIFICATION_TYPES],
  delay: MESSAGE_MAIL_DELAY_SECONDS,
  bucket: MESSAGE_BUCKET_SECONDS,
};

/** One item as rr_notify takes it. */
export interface NotifyInput {
  user_id: string;
  type: NotificationType;
  actor_id: string | null;
  booking_id: string | null;
  request_id: string | null;
  data: NotificationData;
  group_key: string | null;
}

export const notifyInput = (n: NewNotification): NotifyInput => ({
  user_id: n.userId,
  type: n.type,
  actor_id: n.actorId ?? null,
  booking_id: n.bookingId ?? null,
  request_id: n.requestId ?? null,
  data: n.data ?? {},
  group_key: groupKey(n),
});

/** notify()'s one statement (the function rr_notify, migration 0042), prepared once per connection (db/prepared.ts). */
const notifyStatement = preparedStatement(
  'notify',
  () => sql`select rr_notify(${sql.placeholder('input')}::jsonb, ${sql.placeholder('security')}::text[],
    ${sql.placeholder('delay')}::int, ${sql.placeholder('bucket')}::int) as written`,
);

/** A row rr_notify wrote, as it answers it. */
interface Written {
  id: string;
  user_id: string;
  type: string;
  data: unknown;
  created_at: string;
  read_at: string | null;
}

/**
 * Writes notifications inside the caller's transaction `tx`: the rows, their e-mail jobs (unless the person
 * switched that type's e-mail off; security types always) and a live `notification.created` for each recipient,
 * added to `out` (flushed last by the caller, as always). One statement, so a lifecycle write pays one round trip.
 *
 * Messages (`type: 'message'`) are grouped per conversation: while the recipient's notification of that
 * conversation is unread, it is updated (count + 1, newest time) instead of adding one; its e-mail job waits
 * MESSAGE_MAIL_DELAY_SECONDS and is added at most once per MESSAGE_MAIL_INTERVAL_MINUTES window per notification
 * (the job key: a notification read and followed by a new one in the same window gets its own job); the job itself checks, when it runs, that the notification is still unread and that no message
 * mail of that conversation went out within the interval (mail-job.ts). Saved-search matches (`search_match`,
 * places.md) are grouped per search the same way and mailed through the same throttle (ALERT_EMAIL_INTERVAL_MINUTES);
 * their job key is the notification's last mail time instead of a clock window, so a match that comes after a
 * mail gets a job that waits for the interval's end and then mails everything that matched meanwhile.
 *
 * Call it while the rows it names (the booking, request, actor) still exist: the names and title are read now.
 * Items for a deleted account (users.deleted_at) are dropped.
 */
export async function notify(tx: Db, out: Outbox, items: readonly NewNotification[]): Promise<void> {
  if (!items.length) return;
  const result = await notifyStatement(tx, {
    input: JSON.stringify(items.map(notifyInput)),
    security: NOTIFY_SETTINGS.security,
    delay: NOTIFY_SETTINGS.delay,
    bucket: NOTIFY_SETTINGS.bucket,
  });
  const [{ written } = { written: [] }] = rowsOf<{ written: Written[] }>(result);
  for (const row of written)
    out.add([row.user_id], 'notification.created', {
      notification: toNotification({ ...row, createdAt: row.created_at, readAt: row.read_at }),
    });
}
