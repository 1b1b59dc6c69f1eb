import { useMutation, useQueryClient } from '@tanstack/react-query';
import { notificationSchema, notificationUnreadSchema } from '@shared/notifications';
import { api } from '@/lib/api-client';
import { listQuery } from '@/lib/pagination';
import { queryKeys } from '@/lib/query-keys';
import { toastApiError, toastSuccess } from '@/lib/toast';

/** The toast after 'Mark all as read'. */
export const ALL_MARKED_READ_TOAST = 'All notifications marked as read';

/** GET /notifications: mine, newest first, 20 a page. Live events reload it (`notification.created`/`.read`). */
export const useNotifications = listQuery({
  path: '/notifications',
  item: notificationSchema,
  queryKey: queryKeys.notificationList,
});

/** The bell's count lives in ./unread (no zod in the dashboard's first scripts); the page uses it from here too. */
export { useUnreadNotifications } from './unread';

/**
 * POST /notifications/:id/read when a notification is opened. The page navigates at once without waiting for it,
 * so there is no toast: a failure only leaves the notification unread, which the list and the bell still show.
 */
export function useMarkNotificationRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) =>
      notificationSchema.parse(await api<unknown>(`/notifications/${encodeURIComponent(id)}/read`, { method: 'POST' })),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.notifications }),
  });
}

/** POST /notifications/read-all: answers `{count}` (how many it marked), the same shape as the unread count. */
export function useMarkAllNotificationsRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () =>
      notificationUnreadSchema.parse(await api<unknown>('/notifications/read-all', { method: 'POST' })),
    onSuccess: () => {
      client.setQueryData(queryKeys.notificationUnread, { count: 0 });
      toastSuccess(ALL_MARKED_READ_TOAST);
    },
    onError: (err) => toastApiError(err),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.notifications }),
  });
}
