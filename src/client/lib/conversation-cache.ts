import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { ConversationPage, Message } from '@shared/messages';
import { queryKeys } from './query-keys';

/** A conversation in the cache: pages as the server sends them, the newest page first, each newest first. */
export type ConversationData = InfiniteData<ConversationPage>;

const sameMessage = (a: Message, b: Message) => a.id === b.id || a.client_id === b.client_id;

/**
 * Puts a message into an open conversation's cache once: the answer to my send, the live event and a refetch may
 * all bring the same message, in any order. A conversation not in the cache is left alone (it loads when opened).
 */
export function addMessageToCache(client: QueryClient, bookingId: string, message: Message) {
  client.setQueryData<ConversationData>(queryKeys.conversation(bookingId), (data) => {
    if (!data) return data;
    if (data.pages.some((page) => page.items.some((m) => sameMessage(m, message)))) return data;
    const [newest, ...older] = data.pages;
    if (!newest) return data;
    return { ...data, pages: [{ ...newest, items: [message, ...newest.items] }, ...older] };
  });
}

/** The other person's read mark moved ('Seen'); kept on every page so whichever is read first agrees. */
export function setOtherReadAt(client: QueryClient, bookingId: string, readAt: string | null) {
  client.setQueryData<ConversationData>(queryKeys.conversation(bookingId), (data) =>
    data ? { ...data, pages: data.pages.map((page) => ({ ...page, other_read_at: readAt })) } : data,
  );
}
