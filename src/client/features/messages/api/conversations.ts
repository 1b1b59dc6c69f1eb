import { conversationSummarySchema } from '@shared/messages';
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

/** The sidebar's badge lives in ./unread (no zod in the dashboard's first scripts). */
export { useUnreadConversations } from './unread';
