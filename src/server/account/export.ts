import { asc, eq, sql, type SQL } from 'drizzle-orm';
import { EXPORT_SECTIONS } from '../../shared/account';
import {
  notificationDataSchema,
  notificationText,
  type NotificationData,
  type NotificationType,
} from '../../shared/notifications';
import { ID_REJECT_REASONS } from '../../shared/verification';
import type { Db } from '../db/client';
import { rowsOf } from '../db/result-rows';
import { notifications } from '../db/schema';
import type { Caller } from './identity';

/**
 * 'Your data' (docs/account-data.md): everything stored about the caller, as one JSON document with
 * `exported_at` and every EXPORT_SECTIONS key. Other people appear by id and name only; no secret is included
 * (no password hash, two-factor secret, token or code hash; sessions by browser and times).
 *
 * Built for size (the bench seeds 10,000 rows, bench/export.ts): one statement has PostgreSQL build every section
 * but two as JSON text, each an index range of the caller's rows; the notifications (whose words are made by the
 * shared wording) and the sessions (whose browser label the auth feature makes) are added by the server, and the
 * sections are joined as text, never parsed again. Times are ISO strings in UTC, as the API prints them.
 */

export type ExportSection = (typeof EXPORT_SECTIONS)[number];

/** One of the caller's sessions as the auth feature lists them (live ones, most recently active first). */
export interface ExportSession {
  id: string;
  browser: string;
  createdAt: Date;
  lastSeenAt: Date;
}

export interface ExportOptions {
  clock: () => Date;
  /** auth.listSessions. */
  listSessions(userId: string): Promise<ExportSession[]>;
}

/** A timestamp as Date#toISOString prints it, computed by the database (the same on both drivers). */
const iso = (column: string) => sql.raw(`to_char((${column}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);
/** `json_agg` of the rows, `[]` when there are none. */
const list = (item: SQL, from: SQL, order: string) =>
  sql`(select coalesce(json_agg(${item} order by ${sql.raw(order)}), '[]'::json) ${from})`;
const person = (idColumn: string, nameColumn: string) =>
  sql.raw(`json_build_object('id', ${idColumn}, 'full_name', ${nameColumn})`);

/** An ID check's rejection reason as people read it (ID_REJECT_REASONS' label); never the photos. */
const reasonLabel = (column: string) =>
  sql`case ${sql.raw(column)} ${sql.join(
    Object.entries(ID_REJECT_REASONS).map(([key, label]) => sql`when ${key}::text then ${label}::text`),
    sql` `,
  )} end`;

/** A booking in one role: the other person, the request's id and title, its steps. */
function bookingsAs(userId: string, role: 'driver' | 'requester') {
  const other = role === 'driver' ? 'requester_id' : 'driver_id';
  return list(
    sql`json_build_object('id', b.id, 'status', b.status,
      'request', json_build_object('id', r.id, 'title', r.title),
      ${sql.raw(`'${role === 'driver' ? 'requester' : 'driver'}'`)}, ${person('o.user_id', 'o.full_name')},
      'created_at', ${iso('b.created_at')}, 'picked_up_at', ${iso('b.picked_up_at')}, 'ended_at', ${iso('b.ended_at')},
      'has_photo', exists (select 1 from booking_photos ph where ph.booking_id = b.id),
      'events', (select coalesce(json_agg(json_build_object('type', e.type,
          'by', case when e.actor_id is null then 'system' when e.actor_id = b.${sql.raw(role)}_id then 'me' else 'other' end,
          'from_status', e.from_status, 'to_status', e.to_status, 'reason', e.reason, 'details', e.details,
          'at', ${iso('e.created_at')}) order by e.created_at, e.id), '[]'::json)
        from booking_events e where e.booking_id = b.id))`,
    sql`from bookings b join delivery_requests r on r.id = b.request_id
      join profiles o on o.user_id = b.${sql.raw(other)}
      where b.${sql.raw(role)}_id = ${userId}`,
    'b.created_at, b.id',
  );
}

/** Every section PostgreSQL builds, as JSON text, in one statement. */
function sectionsQuery(userId: string) {
  const account = sql`(select json_build_object(
      'id', u.id, 'email', u.email, 'full_name', p.full_name, 'about', p.about,
      'member_since', ${iso('u.created_at')}, 'age_confirmed_at', ${iso('u.age_confirmed_at')},
      'is_admin', u.role = 'admin',
      'rating', json_build_object('count', p.rating_count, 'average', case when p.rating_count > 0
        then (round(p.rating_sum * 10.0 / p.rating_count) / 10)::float8 end),
      'two_factor', json_build_object('enabled', tf.enabled_at is not null, 'enabled_at', ${iso('tf.enabled_at')},
        'recovery_codes_left', (select count(*)::int from recovery_codes c
          where c.user_id = u.id and c.used_at is null)),
      'pending_email_change', (select json_build_object('new_email', ec.new_email,
          'requested_at', ${iso('ec.created_at')}, 'expires_at', ${iso('ec.expires_at')})
        from email_changes ec where ec.user_id = u.id and ec.used_at is null and ec.expires_at > now()
        order by ec.created_at desc limit 1),
      'phone', case when p.phone is not null then json_build_object('number', p.phone,
        'verified_at', ${iso('p.phone_verified_at')}) end,
      'pending_phone_code', (select json_build_object('phone', pv.phone, 'sent_at', ${iso('pv.created_at')},
          'expires_at', ${iso('pv.expires_at')})
        from phone_verifications pv where pv.user_id = u.id and pv.used_at is null and pv.expires_at > now()
        order by pv.created_at desc limit 1),
      'password_reset_links', ${list(
        sql`json_build_object('requested_at', ${iso('t.created_at')}, 'expires_at', ${iso('t.expires_at')}, 'used_at', ${iso('t.used_at')})`,
        sql`from password_reset_tokens t where t.user_id = u.id`,
        't.created_at',
      )},
      'id_checks', ${list(
        sql`json_build_object('status', x.status, 'name_sent', x.full_name, 'submitted_at', ${iso('x.submitted_at')},
          'decided_at', ${iso('x.decided_at')}, 'reason', ${reasonLabel('x.reason')})`,
        sql`from id_checks x where x.user_id = u.id`,
        'x.submitted_at, x.id',
      )},
      'known_browsers', ${list(
        sql`json_build_object('first_seen_at', ${iso('k.first_seen_at')}, 'last_seen_at', ${iso('k.last_seen_at')})`,
        sql`from known_browsers k where k.user_id = u.id`,
        'k.first_seen_at',
      )})
    from users u join profiles p on p.user_id = u.id left join two_factor_secrets tf on tf.user_id = u.id
    where u.id = ${userId})`;
  const rides = list(
    sql`json_build_object('id', x.id, 'origin', x.origin, 'destination', x.destination,
      'departure_date', x.departure_date, 'departure_time', to_char(x.departure_time, 'HH24:MI'),
      'available_space', x.available_space, 'notes', x.notes, 'status', x.status, 'created_at', ${iso('x.created_at')},
      'stops', (select coalesce(json_agg(s.label order by s.position), '[]'::json) from ride_stops s
        where s.ride_id = x.id))`,
    sql`from rides x where x.user_id = ${userId}`,
    'x.departure_date, x.departure_time, x.id',
  );
  const requests = list(
    sql`json_build_object('id', x.id, 'title', x.title, 'description', x.description,
      'pickup_location', x.pickup_location, 'delivery_location', x.delivery_location,
      'needed_by_date', x.needed_by_date,
      'compensation', case when x.compensation_cents is not null
        then (x.compensation_cents / 100)::text || '.' || lpad((x.compensation_cents % 100)::text, 2, '0') end,
      'status', x.status, 'created_at', ${iso('x.created_at')})`,
    sql`from delivery_requests x where x.user_id = ${userId}`,
    'x.created_at, x.id',
  );
  // Both roles' conversations, each an index range: the union keeps the two ranges apart.
  const messages = list(
    sql`json_build_object('id', m.id, 'booking_id', m.booking_id, 'from', ${person('m.sender_id', 's.full_name')},
      'sent_by_me', m.sender_id = ${userId}, 'body', m.body, 'sent_at', ${iso('m.created_at')})`,
    sql`from (select id from bookings where driver_id = ${userId}
              union all select id from bookings where requester_id = ${userId}) b
      join messages m on m.booking_id = b.id join profiles s on s.user_id = m.sender_id`,
    'm.created_at, m.id',
  );
  const review = (who: string, role: string) =>
    sql`json_build_object('id', v.id, 'booking_id', v.booking_id, ${sql.raw(`'${who}'`)}, ${person('o.user_id', 'o.full_name')},
      ${sql.raw(`'${role}'`)}, v.reviewer_role, 'rating', v.rating, 'comment', v.comment,
      'written_at', ${iso('v.created_at')}, 'published_at', ${iso('v.published_at')},
      'reply', v.reply, 'replied_at', ${iso('v.replied_at')})`;
  const reviewsByMe = list(
    review('reviewee', 'my_role'),
    sql`from reviews v join profiles o on o.user_id = v.reviewee_id where v.reviewer_id = ${userId}`,
    'v.created_at, v.id',
  );
  // Only published ones: until then a review is its author's (double-blind).
  const reviewsAboutMe = list(
    review('reviewer', 'reviewer_role'),
    sql`from reviews v join profiles o on o.user_id = v.reviewer_id
      where v.reviewee_id = ${userId} and v.published_at is not null`,
    'v.published_at, v.id',
  );
  const settings = sql`(select json_build_object('emails_off', coalesce((select to_json(np.email_off)
      from notification_preferences np where np.user_id = ${userId}), '[]'::json)))`;
  const reports = list(
    sql`json_build_object('id', x.id, 'reported', ${person('o.user_id', 'o.full_name')},
      'booking_id', x.booking_id, 'review_id', x.review_id, 'reason', x.reason, 'details', x.details,
      'status', x.status, 'created_at', ${iso('x.created_at')}, 'resolved_at', ${iso('x.resolved_at')})`,
    sql`from reports x join profiles o on o.user_id = x.reported_id where x.reporter_id = ${userId}`,
    'x.created_at, x.id',
  );
  const blocks = list(
    sql`json_build_object('user', ${person('o.user_id', 'o.full_name')}, 'blocked_at', ${iso('x.created_at')})`,
    sql`from blocks x join profiles o on o.user_id = x.blocked_id where x.blocker_id = ${userId}`,
    'x.created_at',
  );
  const savedSearches = list(
    sql`json_build_object('id', x.id, 'name', x.name, 'kind', x.kind, 'filters', x.filters, 'ride_id', x.ride_id,
      'email', x.email, 'created_at', ${iso('x.created_at')})`,
    sql`from saved_searches x where x.user_id = ${userId}`,
    'x.created_at, x.id',
  );
  // Payments I made or was paid by (the driver's side without the requester's card), and payouts to me.
  const payments = list(
    sql`json_build_object('id', x.id, 'booking_id', x.booking_id, 'title', x.title,
      'my_role', case when x.requester_id = ${userId} then 'requester' else 'driver' end,
      'compensation_cents', x.compensation_cents,
      'fee_cents', case when x.requester_id = ${userId} then x.fee_cents end,
      'card_last4', case when x.requester_id = ${userId} then x.card_last4 end,
      'refunded_cents', x.refunded_cents, 'state', x.state, 'created_at', ${iso('x.created_at')},
      'held_at', ${iso('x.held_at')}, 'settled_at', ${iso('x.settled_at')})`,
    sql`from (select * from payments where requester_id = ${userId}
              union all select * from payments where driver_id = ${userId} and requester_id <> ${userId}) x`,
    'x.created_at, x.id',
  );
  const payouts = list(
    sql`json_build_object('id', x.id, 'amount_cents', x.amount_cents, 'state', x.state,
      'created_at', ${iso('x.created_at')}, 'paid_at', ${iso('x.paid_at')})`,
    sql`from payouts x where x.user_id = ${userId}`,
    'x.created_at, x.id',
  );
  return sql`select ${account}::text as account, ${rides}::text as rides, ${requests}::text as requests,
    ${bookingsAs(userId, 'driver')}::text as bookings_as_driver,
    ${bookingsAs(userId, 'requester')}::text as bookings_as_requester,
    ${messages}::text as messages, ${reviewsByMe}::text as reviews_by_me,
    ${reviewsAboutMe}::text as reviews_about_me, ${settings}::text as notification_settings,
    ${reports}::text as reports, ${blocks}::text as blocks, ${savedSearches}::text as saved_searches,
    ${payments}::text as payments, ${payouts}::text as payouts`;
}

type SqlSections = Exclude<ExportSection, 'notifications' | 'sessions'>;

/** The file name of a download made at `at`: ruralroute-data-YYYY-MM-DD.json (UTC). */
export const exportFileName = (at: Date) => `ruralroute-data-${at.toISOString().slice(0, 10)}.json`;

export function createDataExport(db: Db, opts: ExportOptions) {
  async function notificationsOf(userId: string): Promise<string> {
    const rows = await db
      .select({
        id: notifications.id,
        type: notifications.type,
        data: notifications.data,
        createdAt: notifications.createdAt,
        readAt: notifications.readAt,
        emailedAt: notifications.emailedAt,
      })
      .from(notifications)
      .where(eq(notifications.userId, userId))
      .orderBy(asc(notifications.createdAt), asc(notifications.id));
    return JSON.stringify(
      rows.map((n) => {
        const parsed = notificationDataSchema.safeParse(n.data ?? {});
        const data: NotificationData = parsed.success ? parsed.data : {};
        return {
          id: n.id,
          // The column's CHECK is built from NOTIFICATION_TYPES.
          type: n.type,
          text: notificationText(n.type as NotificationType, data),
          created_at: n.createdAt.toISOString(),
          read_at: n.readAt?.toISOString() ?? null,
          emailed_at: n.emailedAt?.toISOString() ?? null,
        };
      }),
    );
  }

  async function sessionsOf(caller: Caller): Promise<string> {
    const rows = await opts.listSessions(caller.userId);
    return JSON.stringify(
      rows.map((s) => ({
        browser: s.browser,
        signed_in_at: s.createdAt.toISOString(),
        last_active_at: s.lastSeenAt.toISOString(),
        current: s.id === caller.sessionId,
      })),
    );
  }

  /** The caller's document as JSON text, and its file name. */
  async function exportFor(caller: Caller): Promise<{ fileName: string; body: string }> {
    const at = opts.clock();
    const [result, notices, sessions] = await Promise.all([
      db.execute(sectionsQuery(caller.userId)),
      notificationsOf(caller.userId),
      sessionsOf(caller),
    ]);
    const [row] = rowsOf<Record<SqlSections, string>>(result);
    if (!row) throw new Error('the export query returned no row');
    const text: Record<ExportSection, string> = { ...row, notifications: notices, sessions };
    const parts = [`"exported_at": ${JSON.stringify(at.toISOString())}`];
    for (const key of EXPORT_SECTIONS) parts.push(`"${key}": ${text[key]}`);
    return { fileName: exportFileName(at), body: `{\n${parts.join(',\n')}\n}\n` };
  }

  return { exportFor };
}

export type DataExport = ReturnType<typeof createDataExport>;
