import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Page } from '../../shared/marketplace';
import {
  OPTIONAL_NOTIFICATION_TYPES,
  UNSUBSCRIBE_INVALID_MESSAGE,
  type Notification,
  type NotificationSettings,
  type NotificationSettingsPatch,
  type NotificationUnread,
  type UnsubscribeResult,
} from '../../shared/notifications';
import { DomainError, notFound } from '../core/domain-error';
import type { Db } from '../db/client';
import { cursorInstant, cursorUuid, keysetList, type PageRequest } from '../db/keyset';
import { rowsOf } from '../db/result-rows';
import { notificationPreferences, notifications, users } from '../db/schema';
import { Outbox } from '../events';
import { toNotification } from './row-to-notification';
import type { UnsubscribeTokens } from './unsubscribe';

export const NOTIFICATION_NOT_FOUND = 'Notification not found.';

const listCursor = z.tuple([cursorInstant, cursorUuid]);

const columns = {
  id: notifications.id,
  type: notifications.type,
  data: notifications.data,
  createdAt: notifications.createdAt,
  readAt: notifications.readAt,
};

const invalidToken = () => new DomainError('validation_error', UNSUBSCRIBE_INVALID_MESSAGE);

/**
 * A person's notifications (src/shared/notifications.ts): the list, the bell's count, marking read, and the e-mail
 * switches. Every query is bounded by the caller's user id: another person's notification does not exist here.
 */
export function createNotificationService(db: Db, tokens: UnsubscribeTokens) {
  // Newest first over notifications_user_created_idx (user_id, created_at, id), read backwards.
  const listOf = keysetList({
    name: 'notifications_list',
    from: () => db.select(columns).from(notifications).$dynamic(),
    filter: sql`${notifications.userId} = ${sql.placeholder('userId')}`,
    after: sql`(${notifications.createdAt}, ${notifications.id}) < (${sql.placeholder('at')}::timestamptz, ${sql.placeholder('id')}::uuid)`,
    orderBy: [desc(notifications.createdAt), desc(notifications.id)],
    cursor: listCursor,
    bind: ([at, id]) => ({ at, id }),
    sortKey: (n) => [n.createdAt.toISOString(), n.id],
  });

  /**
   * Sets the e-mail switches in `changes` for `userId` in one statement (concurrent changes of different types
   * both stick). Returns false when there is no such user.
   */
  async function setSwitches(userId: string, changes: Partial<Record<string, boolean>>): Promise<boolean> {
    const off = Object.keys(changes).filter((t) => changes[t] === false);
    const on = Object.keys(changes).filter((t) => changes[t] === true);
    const result = await db.execute(sql`
      insert into ${notificationPreferences} as p (user_id, email_off)
      select u.id, array(select jsonb_array_elements_text(${JSON.stringify(off)}::jsonb) order by 1)
      from ${users} u where u.id = ${userId}
      on conflict (user_id) do update set
        email_off = array(
          select distinct t from unnest(p.email_off || excluded.email_off) as t
          where not (t = any(array(select jsonb_array_elements_text(${JSON.stringify(on)}::jsonb))))
          order by 1),
        updated_at = now()
      returning p.user_id`);
    return rowsOf(result).length > 0;
  }

  async function settings(userId: string): Promise<NotificationSettings> {
    const [row] = await db
      .select({ address: users.email, off: notificationPreferences.emailOff })
      .from(users)
      .leftJoin(notificationPreferences, eq(notificationPreferences.userId, users.id))
      .where(eq(users.id, userId));
    if (!row) throw notFound();
    const off = new Set(row.off ?? []);
    return {
      address: row.address,
      email: Object.fromEntries(
        OPTIONAL_NOTIFICATION_TYPES.map((t) => [t, !off.has(t)]),
      ) as NotificationSettings['email'],
    };
  }

  /** One switch from a signed link (no session): the token names the person and the type. */
  async function switchByToken(token: string, email: boolean): Promise<UnsubscribeResult> {
    const claim = await tokens.verify(token);
    if (!claim || !(await setSwitches(claim.userId, { [claim.type]: email }))) throw invalidToken();
    return { type: claim.type, email };
  }

  return {
    /** My notifications, newest first. */
    list(userId: string, page: PageRequest): Promise<Page<Notification>> {
      return listOf({ userId }, page, toNotification);
    },

    async unread(userId: string): Promise<NotificationUnread> {
      const [row] = await db
        .select({ n: count() })
        .from(notifications)
        .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
      return { count: Number(row?.n ?? 0) };
    },

    /**
     * Marks one of my notifications read (again: nothing changes, the first read time stays). Only a change is
     * announced (`notification.read` to my other tabs), in the same transaction.
     */
    async markRead(userId: string, id: string): Promise<Notification> {
      return db.transaction(async (tx) => {
        const mine = and(eq(notifications.id, id), eq(notifications.userId, userId));
        const [changed] = await tx
          .update(notifications)
          .set({ readAt: sql`now()` })
          .where(and(mine, isNull(notifications.readAt)))
          .returning(columns);
        if (changed) {
          await new Outbox().add([userId], 'notification.read', { ids: [id], all: false }).flush(tx);
          return toNotification(changed);
        }
        const [row] = await tx.select(columns).from(notifications).where(mine);
        if (!row) throw notFound(NOTIFICATION_NOT_FOUND);
        return toNotification(row);
      });
    },

    /** Marks all my unread notifications read; returns how many there were. */
    async readAll(userId: string): Promise<{ count: number }> {
      return db.transaction(async (tx) => {
        const marked = await tx
          .update(notifications)
          .set({ readAt: sql`now()` })
          .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)))
          .returning({ id: notifications.id });
        if (marked.length) await new Outbox().add([userId], 'notification.read', { ids: [], all: true }).flush(tx);
        return { count: marked.length };
      });
    },

    settings,

    async updateSettings(userId: string, patch: NotificationSettingsPatch): Promise<NotificationSettings> {
      if (Object.keys(patch.email).length) await setSwitches(userId, patch.email);
      return settings(userId);
    },

    unsubscribe: (token: string) => switchByToken(token, false),
    resubscribe: (token: string) => switchByToken(token, true),
  };
}

export type NotificationService = ReturnType<typeof createNotificationService>;
