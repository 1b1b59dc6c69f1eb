import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useLocation } from '@/lib/router';
import { CONVERSATION_CLOSED_TEXT, MESSAGING_ERRORS, type ConversationState } from '@shared/messages';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { ApiError, isQueued } from '@/lib/api-client';
import type { ConversationData } from '@/lib/conversation-cache';
import { toastMutationError } from '@/lib/mutation-errors';
import { queryKeys } from '@/lib/query-keys';
import { toastError } from '@/lib/toast';
import { newClientId, sendMessage, useConversation, useMarkRead, useQueuedMessages } from '../api/conversation';
import { MessageComposer } from './message-composer';
import { MessageList, type OutgoingMessage } from './message-list';

interface People {
  bookingId: string;
  myId: string;
  otherName: string;
}

const subscribeVisibility = (onChange: () => void) => {
  document.addEventListener('visibilitychange', onChange);
  return () => document.removeEventListener('visibilitychange', onChange);
};
const useDocumentVisible = () =>
  useSyncExternalStore(
    subscribeVisibility,
    () => document.visibilityState === 'visible',
    () => false,
  );

const NOTE: Record<Exclude<ConversationState, 'open'>, string> = {
  closed: CONVERSATION_CLOSED_TEXT,
  blocked: MESSAGING_ERRORS.blocked.message,
};

function Conversation({
  bookingId,
  myId,
  otherName,
  data,
  older,
}: People & {
  data: ConversationData;
  older: { has: boolean; loading: boolean; load: () => void };
}) {
  const client = useQueryClient();
  const [outgoing, setOutgoing] = useState<OutgoingMessage[]>([]);
  const head = data.pages[0];
  const state = head?.state ?? 'open';
  const messages = data.pages.flatMap((page) => page.items).reverse();
  // Mine not yet confirmed, then those waiting on the device (also after a reload). Once the server's copy is here
  // (the answer or the live event, whichever came first) it replaces mine.
  const queued = useQueuedMessages(bookingId);
  const pending = [...outgoing, ...queued.filter((q) => !outgoing.some((o) => o.client_id === q.client_id))].filter(
    (o) => !messages.some((m) => m.client_id === o.client_id),
  );

  // Seeing the conversation marks it read: on opening, and again for each new message from the other person.
  const { mutate: markRead } = useMarkRead(bookingId);
  const visible = useDocumentVisible();
  const latestFromOther = messages.filter((m) => m.sender_id !== myId).pop();
  const readKey = latestFromOther?.id ?? '';
  const markedFor = useRef<string | null>(null);
  useEffect(() => {
    if (!visible || markedFor.current === readKey) return;
    markedFor.current = readKey;
    markRead();
  }, [visible, readKey, markRead]);
  const [openedWith] = useState(readKey);
  const announcement = latestFromOther && readKey !== openedWith ? `${otherName}: ${latestFromOther.body}` : '';

  const setStatus = (clientId: string, status: OutgoingMessage['status']) =>
    setOutgoing((list) => list.map((o) => (o.client_id === clientId ? { ...o, status } : o)));
  const deliver = (message: OutgoingMessage) => {
    sendMessage(client, bookingId, { body: message.body, client_id: message.client_id }).then(
      () => setOutgoing((list) => list.filter((o) => o.client_id !== message.client_id)),
      (err: unknown) => {
        // Kept in the send queue: it is listed from there ('Waiting to send') until it is sent.
        if (isQueued(err)) {
          setOutgoing((list) => list.filter((o) => o.client_id !== message.client_id));
          toastMutationError(err);
          return;
        }
        setStatus(message.client_id, 'failed');
        if (err instanceof ApiError && Object.hasOwn(MESSAGING_ERRORS, err.code)) {
          const refusal = MESSAGING_ERRORS[err.code as keyof typeof MESSAGING_ERRORS];
          toastError(refusal.title, refusal.message);
          void client.invalidateQueries({ queryKey: queryKeys.conversation(bookingId) });
        } else {
          toastMutationError(err);
        }
      },
    );
  };
  const send = (body: string) => {
    const message: OutgoingMessage = {
      client_id: newClientId(),
      body,
      created_at: new Date().toISOString(),
      status: 'sending',
    };
    setOutgoing((list) => [...list, message]);
    deliver(message);
  };
  const retry = (message: OutgoingMessage) => {
    setStatus(message.client_id, 'sending');
    deliver(message);
  };

  return (
    <div className="space-y-4">
      <MessageList
        messages={messages}
        outgoing={pending}
        myId={myId}
        otherName={otherName}
        otherReadAt={head?.other_read_at ?? null}
        older={older}
        onRetry={state === 'open' ? retry : undefined}
      />
      <div aria-live="polite" className="sr-only">
        {announcement}
      </div>
      {state === 'open' ? (
        <MessageComposer onSend={send} />
      ) : (
        <p className="rounded-md border bg-muted px-3 py-2">{NOTE[state]}</p>
      )}
    </div>
  );
}

/**
 * 'Messages' on the booking page: the conversation between its driver and its requester. Opened through a link
 * ending in '#messages' (the Messages page), it takes the focus once loaded, so the page scrolls to it.
 */
export function MessagesSection(props: People) {
  const query = useConversation(props.bookingId);
  const heading = useRef<HTMLHeadingElement>(null);
  const { hash } = useLocation();
  const loaded = query.data !== undefined;
  useEffect(() => {
    if (loaded && hash === '#messages') heading.current?.focus();
  }, [loaded, hash]);

  let body;
  if (query.data) {
    body = (
      <Conversation
        {...props}
        data={query.data}
        older={{
          has: query.hasNextPage,
          loading: query.isFetchingNextPage,
          load: () => void query.fetchNextPage(),
        }}
      />
    );
  } else if (query.isError) {
    body = (
      <div role="alert" className="flex flex-col items-start gap-3 rounded-lg border border-destructive/40 p-4">
        <p>We couldn&apos;t load the messages.{query.error instanceof ApiError ? ` ${query.error.message}` : ''}</p>
        <Button variant="outline" onClick={() => void query.refetch()}>
          Try again
        </Button>
      </div>
    );
  } else {
    body = <p role="status">Loading messages...</p>;
  }

  return (
    <Card id="messages" role="region" aria-labelledby="messages-heading">
      <CardHeader>
        <CardTitle id="messages-heading" ref={heading} tabIndex={-1} className="rounded-sm focus:outline-none">
          Messages
        </CardTitle>
      </CardHeader>
      <CardContent>{body}</CardContent>
    </Card>
  );
}
