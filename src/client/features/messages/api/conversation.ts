import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useMemo, useSyncExternalStore } from 'react';
import {
  conversationPageSchema,
  MESSAGES_PAGE_SIZE,
  messageSchema,
  readMarkSchema,
  sendMessageSchema,
  type SendMessageInput,
} from '@shared/messages';
import { api, newIdempotencyKey } from '@/lib/api-client';
import { addMessageToCache } from '@/lib/conversation-cache';
import { sendQueue } from '@/offline/send-queue';
import { queryKeys } from '@/lib/query-keys';
import type { OutgoingMessage } from '../components/message-list';

const messagesPath = (bookingId: string) => `/bookings/${encodeURIComponent(bookingId)}/messages`;

/** GET /bookings/:id/messages: one page of the conversation, newest first; `next_cursor` leads to older ones. */
async function fetchConversationPage(bookingId: string, cursor: string | null, signal?: AbortSignal) {
  const params = new URLSearchParams({ limit: String(MESSAGES_PAGE_SIZE) });
  if (cursor) params.set('cursor', cursor);
  return conversationPageSchema.parse(
    await api<unknown>(`${messagesPath(bookingId)}?${params.toString()}`, { signal }),
  );
}

export function useConversation(bookingId: string) {
  return useInfiniteQuery({
    queryKey: queryKeys.conversation(bookingId),
    queryFn: ({ pageParam, signal }) => fetchConversationPage(bookingId, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
  });
}

/**
 * POST /bookings/:id/messages. A retry sends the same `client_id`, so the server stores the message once (200
 * with the stored one). The answer goes into the cache here, not in a component: it lands even if the page closed.
 * With no signal the message waits in the send queue (QueuedError) and the conversation shows it as 'Waiting to send'.
 */
export async function sendMessage(
  client: ReturnType<typeof useQueryClient>,
  bookingId: string,
  input: SendMessageInput,
) {
  const answer = await sendQueue.send<unknown>({
    label: `Message: ${input.body}`,
    method: 'POST',
    path: messagesPath(bookingId),
    body: input,
    refresh: [queryKeys.conversation(bookingId), queryKeys.conversations],
  });
  const message = messageSchema.parse(answer);
  addMessageToCache(client, bookingId, message);
  void client.invalidateQueries({ queryKey: queryKeys.conversations });
  return message;
}

/** The messages of this conversation waiting in the send queue, oldest first. */
export function useQueuedMessages(bookingId: string): OutgoingMessage[] {
  const entries = useSyncExternalStore(sendQueue.subscribe, sendQueue.all, sendQueue.all);
  const path = messagesPath(bookingId);
  return useMemo(
    () =>
      sendQueue
        .waiting()
        .filter((e) => e.path === path && e.method === 'POST')
        .flatMap((e) => {
          const input = sendMessageSchema.safeParse(e.body);
          return input.success
            ? [{ ...input.data, created_at: new Date(e.queuedAt).toISOString(), status: 'queued' as const }]
            : [];
        }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `entries` is what changes when the send queue does.
    [entries, path],
  );
}

/** POST /bookings/:id/messages/read: I have seen everything here; the unread counts change with it. */
export function useMarkRead(bookingId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () =>
      readMarkSchema.parse(await api<unknown>(`${messagesPath(bookingId)}/read`, { method: 'POST', body: {} })),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: queryKeys.unread }),
        client.invalidateQueries({ queryKey: queryKeys.conversations }),
      ]),
  });
}

/** A message's `client_id`, made once when it is written: a random UUID, as an idempotency key is. */
export const newClientId = newIdempotencyKey;
