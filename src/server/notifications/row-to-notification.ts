import {
  notificationDataSchema,
  notificationLink,
  notificationText,
  type Notification,
  type NotificationData,
  type NotificationType,
} from '../../shared/notifications';

/** A notifications row as the queries of this feature select it. */
export interface NotificationRow {
  id: string;
  type: string;
  data: unknown;
  createdAt: Date | string;
  readAt: Date | string | null;
}

const iso = (v: Date | string) => (v instanceof Date ? v : new Date(v)).toISOString();

/** The row's data, with anything unexpected dropped (the wording falls back to neutral words). */
export function dataOf(raw: unknown): NotificationData {
  const parsed = notificationDataSchema.safeParse(raw ?? {});
  return parsed.success ? parsed.data : {};
}

/** The API's shape: the words and link are built from the type and data (src/shared/notifications.ts). */
export function toNotification(row: NotificationRow): Notification {
  // The column's CHECK is built from NOTIFICATION_TYPES.
  const type = row.type as NotificationType;
  const data = dataOf(row.data);
  return {
    id: row.id,
    type,
    text: notificationText(type, data),
    link: notificationLink(type, data),
    created_at: iso(row.createdAt),
    read_at: row.readAt === null ? null : iso(row.readAt),
  };
}

/**
 * A stored live event's data as the client gets it. `notification.created` written by a database function (the
 * accept's, migration 0040) carries the stored row (`{ row }`, its `created_at` / `read_at` as JSON text), worded
 * here when the event hub sends it; every other event is sent as stored.
 */
export function liveEventData(type: string, data: unknown): unknown {
  if (type !== 'notification.created' || typeof data !== 'object' || data === null || !('row' in data)) return data;
  const row = (data as { row: NotificationRow & { created_at: string; read_at: string | null } }).row;
  return { notification: toNotification({ ...row, createdAt: row.created_at, readAt: row.read_at }) };
}
