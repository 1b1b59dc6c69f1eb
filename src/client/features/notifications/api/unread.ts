import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

const unreadQueryOptions = queryOptions({
  queryKey: queryKeys.notificationUnread,
  queryFn: async ({ signal }) => {
    // The contract (and zod with it) loads beside the request, not with the bell: the bell is on the dashboard's
    // first screen, whose scripts must be small on a slow line.
    const [body, { notificationUnreadSchema }] = await Promise.all([
      api<unknown>('/notifications/unread', { signal }),
      import('@shared/notifications'),
    ]);
    return notificationUnreadSchema.parse(body);
  },
  // The live stream keeps it current; coming back to the tab also checks, in case the stream was down meanwhile.
  refetchOnWindowFocus: true,
});

/** GET /notifications/unread: how many notifications I have not read (the bell's badge). */
export function useUnreadNotifications() {
  return useQuery(unreadQueryOptions);
}
