import { useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import type { Page } from '@shared/marketplace';
import {
  SUPPORT_REPLY_SENT_TOAST,
  supportMessageSchema,
  type SupportMessage,
  type SupportReply,
  type SupportStatus,
} from '@shared/support';
import { api, ApiError } from '@/lib/api-client';
import { toastMutationError } from '@/lib/mutation-errors';
import { listQuery } from '@/lib/pagination';
import { queryKeys } from '@/lib/query-keys';
import { toastError, toastSuccess } from '@/lib/toast';

const listKey = (status: SupportStatus) => [...queryKeys.adminSupport, status];

const supportList = (status: SupportStatus) =>
  listQuery({ path: '/admin/support', item: supportMessageSchema, queryKey: listKey(status), filters: { status } });

/** GET /admin/support?status=open: Plus and Community members' messages first, then oldest first (admins only). */
export const useOpenSupportMessages = supportList('open');
/** GET /admin/support?status=answered: answered messages, newest first. */
export const useAnsweredSupportMessages = supportList('answered');

/**
 * POST /admin/support/:id/reply: the answer, e-mailed to the sender. The answered message replaces its open self in
 * place (it shows 'Answered' where the admin left it; the open list drops it on its next load) and the 'Answered'
 * list reloads. Answered a moment ago by another admin (409): said in the server's words, and both lists reload.
 */
export function useReplyToSupportMessage() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, ...body }: SupportReply & { id: string }) =>
      supportMessageSchema.parse(
        await api<unknown>(`/admin/support/${encodeURIComponent(id)}/reply`, { method: 'POST', body }),
      ),
    onSuccess: (answered) => {
      client.setQueryData<InfiniteData<Page<SupportMessage>>>(listKey('open'), (data) =>
        data
          ? {
              ...data,
              pages: data.pages.map((page) => ({
                ...page,
                items: page.items.map((item) => (item.id === answered.id ? answered : item)),
              })),
            }
          : data,
      );
      toastSuccess(SUPPORT_REPLY_SENT_TOAST, `Your answer was e-mailed to ${answered.email}.`);
      // Stale, not reloaded now: the next time the open list loads, the answered message has left it.
      void client.invalidateQueries({ queryKey: listKey('open'), refetchType: 'none' });
      return client.invalidateQueries({ queryKey: listKey('answered') });
    },
    onError: (err) => {
      if (err instanceof ApiError && err.code === 'already_replied') {
        toastError('Error', err.message);
        return client.invalidateQueries({ queryKey: queryKeys.adminSupport });
      }
      toastMutationError(err);
    },
  });
}
