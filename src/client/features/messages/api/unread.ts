import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

const unreadQueryOptions = queryOptions({
  queryKey: queryKeys.unread,
  queryFn: async ({ signal }) => {
    // The contract (and zod with it) loads beside the request, not with the sidebar (the dashboard's first screen).
    const [body, { unreadSchema }] = await Promise.all([
      api<unknown>('/messages/unread', { signal }),
      import('@shared/messages'),
    ]);
    return unreadSchema.parse(body);
  },
});

/** GET /messages/unread: how many conversations have messages I have not read (the sidebar's badge). */
export function useUnreadConversations() {
  return useQuery(unreadQueryOptions);
}
