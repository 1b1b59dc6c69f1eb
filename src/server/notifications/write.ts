import { sql } from 'drizzle-orm';
import {
  MESSAGE_MAIL_DELAY_SECONDS,
  MESSAGE_MAIL_INTERVAL_MINUTES,
  SECURITY_NOTIFICATION_TYPES,
  type NotificationData,
  type NotificationType,
} from '../../shared/notifications';
import type { Db } from '../db/client';
import { pgNotify } from '../db/notify';
import { rowsOf } from '../db/result-rows';
import { preparedStatement } from '../db/prepared';
import type { Outbox } from '../events';
import { JOBS_CHANNEL } from '../jobs';
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

const SECURITY_SQL = sql.raw(SECURITY_NOTIFICATION_TYPES.map((t) => `'${t}'`).join(', '));
const MESSAGE_BUCKET_SECONDS = MESSAGE_MAIL_INTERVAL_MINUTES * 60;

/** Grouped while unread: a conversation's messages, and the matches of one saved search. */
function groupKey(n: NewNotification): string | null {
  if (n.type === 'message' && n.bookingId) return `message:${n.bookingId}`;
  if (n.type === 'search_match' && n.data?.search_id) return `search:${n.data.search_id}`;
  return null;
}

/** notify()'s one statement, prepared once per connection (db/prepared.ts): planning it cost more than running it. */
const notifyStatement = preparedStatement(
  'notify',
  () => sql`
    with input as (
      select x.* from jsonb_to_recordset(${sql.placeholder('input')}::jsonb)
        as x(user_id uuid, type text, actor_id uuid, booking_id uuid, request_id uuid, data jsonb, group_key text)
    ), resolved as (
      -- Lateral lookups, one index probe each: the planner guesses 100 rows for jsonb_to_recordset and would
      -- otherwise hash-join whole tables (measured: a choose cost 3 ms more database time with plain joins).
      select i.user_id, i.type, i.group_key,
        jsonb_strip_nulls(jsonb_build_object(
          'actor_name', p.full_name,
          'title', r.title,
          'booking_id', i.booking_id,
          'request_id', coalesce(i.request_id, b.request_id)
        )) || i.data as data
      from input i
      left join lateral (select b.request_id from bookings b where b.id = i.booking_id) b on true
      left join lateral (
        select r.id, r.title from delivery_requests r where r.id = coalesce(i.request_id, b.request_id)
      ) r on true
      left join lateral (select p.full_name from profiles p where p.user_id = i.actor_id) p on true
      -- A deleted account is told nothing more (a message or a review arriving later): one key probe per row.
      where (select u.deleted_at from users u where u.id = i.user_id) is null
    ), ins as (
      insert into notifications as n (user_id, type, data, group_key)
      select user_id, type, data, group_key from resolved
      on conflict (user_id, group_key) where read_at is null do update
        set data = excluded.data || jsonb_build_object('count', coalesce((n.data ->> 'count')::int, 1) + 1),
            created_at = now()
      returning n.id, n.user_id, n.type, n.data, n.group_key, n.created_at, n.read_at, n.emailed_at
    ), mail as (
      insert into jobs (kind, payload, run_at, dedupe_key)
      select ${NOTIFICATION_EMAIL_JOB}, jsonb_build_object('notification_id', ins.id),
        case when ins.group_key is null then now()
          else now() + make_interval(secs => ${MESSAGE_MAIL_DELAY_SECONDS}) end,
        case when ins.group_key is null then null
          -- A saved search's matches: one job per notification per mail sent, so a match after a mail waits
          -- (deferred by the job) for the interval's end and goes out then, bundled with what came meanwhile.
          when ins.type = 'search_match' then ${NOTIFICATION_EMAIL_JOB} || ':' || ins.id || ':'
            || coalesce((extract(epoch from ins.emailed_at) * 1000)::bigint::text, 'new')
          else ${NOTIFICATION_EMAIL_JOB} || ':' || ins.id || ':'
            || floor(extract(epoch from now()) / ${MESSAGE_BUCKET_SECONDS})::bigint end
      from ins
      where ins.type in (${SECURITY_SQL}) or not exists (
        select 1 from notification_preferences np where np.user_id = ins.user_id and ins.type = any(np.email_off))
      on conflict (dedupe_key) do nothing
      returning ${pgNotify(JOBS_CHANNEL, '')} as woke
    )
    select ins.id, ins.user_id as "userId", ins.type, ins.data, ins.created_at as "createdAt",
      ins.read_at as "readAt"
    from ins`,
);

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
  const input = JSON.stringify(
    items.map((n) => ({
      user_id: n.userId,
      type: n.type,
      actor_id: n.actorId ?? null,
      booking_id: n.bookingId ?? null,
      request_id: n.requestId ?? null,
      data: n.data ?? {},
      group_key: groupKey(n),
    })),
  );
  const result = await notifyStatement(tx, { input });
  for (const row of rowsOf<{
    id: string;
    userId: string;
    type: string;
    data: unknown;
    createdAt: Date | string;
    readAt: Date | string | null;
  }>(result))
    out.add([row.userId], 'notification.created', { notification: toNotification(row) });
}
