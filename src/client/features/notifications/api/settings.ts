import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  notificationSettingsSchema,
  unsubscribeResultSchema,
  type NotificationSettings,
  type OPTIONAL_NOTIFICATION_TYPES,
} from '@shared/notifications';
import { api } from '@/lib/api-client';
import { toastMutationError } from '@/lib/mutation-errors';
import { queryKeys } from '@/lib/query-keys';
import { toastSuccess } from '@/lib/toast';

/** A type whose e-mails can be switched off (security notices cannot). */
export type OptionalNotificationType = (typeof OPTIONAL_NOTIFICATION_TYPES)[number];

export const NOTIFICATION_SETTINGS_SAVED = 'Notification settings saved';

const notificationSettingsQueryOptions = queryOptions({
  queryKey: queryKeys.notificationSettings,
  queryFn: async ({ signal }) =>
    notificationSettingsSchema.parse(await api<unknown>('/notifications/settings', { signal })),
});

/** GET /notifications/settings: the address mails go to and the e-mail switch of each optional type. */
export function useNotificationSettings() {
  return useQuery(notificationSettingsQueryOptions);
}

const emailSwitchKey = ['notification-settings', 'email'] as const;

/** Sets one type's switch in the cached settings (the optimistic change, and its rollback). */
const withEmail = (type: OptionalNotificationType, on: boolean) => (old: NotificationSettings | undefined) =>
  old && { ...old, email: { ...old.email, [type]: on } };

/**
 * PATCH /notifications/settings with just the switch that changed. The switch moves at once; a failure puts back
 * only that switch (another may have changed meanwhile). Changes are sent one after another (one mutation scope),
 * so the server applies them in the order they were made, and the settings are reloaded after the last one.
 */
export function useSetEmailNotification() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: emailSwitchKey,
    scope: { id: 'notification-settings' },
    mutationFn: ({ type, on }: { type: OptionalNotificationType; on: boolean }) =>
      api<unknown>('/notifications/settings', { method: 'PATCH', body: { email: { [type]: on } } }),
    onMutate: async ({ type, on }) => {
      await queryClient.cancelQueries({ queryKey: queryKeys.notificationSettings });
      queryClient.setQueryData(queryKeys.notificationSettings, withEmail(type, on));
    },
    onSuccess: () => toastSuccess(NOTIFICATION_SETTINGS_SAVED),
    onError: (err, { type, on }) => {
      queryClient.setQueryData(queryKeys.notificationSettings, withEmail(type, !on));
      toastMutationError(err);
    },
    onSettled: () => {
      if (queryClient.isMutating({ mutationKey: emailSwitchKey }) === 1) {
        return queryClient.invalidateQueries({ queryKey: queryKeys.notificationSettings });
      }
    },
  });
}

/** POST /notifications/unsubscribe or /resubscribe {token}: no session needed, the signed token says who and what. */
async function postToken(action: 'unsubscribe' | 'resubscribe', token: string) {
  return unsubscribeResultSchema.parse(
    await api<unknown>(`/notifications/${action}`, { method: 'POST', body: { token } }),
  );
}

/**
 * The unsubscribe page's call, made once when it opens. A signed-in person in this browser would see their
 * settings change, so the cached settings are reloaded.
 */
export function useUnsubscribe() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => postToken('unsubscribe', token),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.notificationSettings }),
  });
}

/** The unsubscribe page's 'Undo'. */
export function useResubscribe() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => postToken('resubscribe', token),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.notificationSettings }),
    onError: toastMutationError,
  });
}
