import { queryOptions, useQuery } from '@tanstack/react-query';
import { conversationSummarySchema, unreadSchema } from '../../../../shared/messages';
import { api } from '@/lib/api-client';
import { listQuery } from '@/lib/pagination';
import { queryKeys } from '@/lib/query-keys';

/** A conversation is its booking: the row's key for the paginated list. */
const conversationRowSchema = conversationSummarySchema.transform((row) => ({ ...row, id: row.booking_id }));

/** GET /messages/conversations: my conversations, most recent activity first, 20 a page. */
export const useConversations = listQuery({
  path: '/messages/conversations',
  item: conversationRowSchema,
  queryKey: queryKeys.conversations,
});

const unreadQueryOptions = queryOptions({
  queryKey: queryKeys.unread,
  queryFn: async ({ signal }) => unreadSchema.parse(await api<unknown>('/messages/unread', { signal })),
});

/** GET /messages/unread: how many conversations have messages I have not read (the sidebar's badge). */
export function useUnreadConversations() {
  return useQuery(unreadQueryOptions);
}
