import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { LIVE_EVENT_NAMES, liveEventSchemas, type LiveEventData, type LiveEventName } from '@shared/events';
import { addMessageToCache, setOtherReadAt } from './conversation-cache';
import { queryKeys } from './query-keys';

export type EventSourceConstructor = new (url: string) => EventSource;

/** EventSource.CLOSED: the browser gave up (e.g. 401 after signing out) and will not retry by itself. */
const CLOSED = 2;

/** What each event changes in the cache: the one place the live stream touches the app's data. */
function handlers(client: QueryClient, userId: string, reopened: () => boolean, firstOpenedAt: () => number) {
  let readyBefore = false;
  const invalidate = (queryKey: readonly unknown[]) => void client.invalidateQueries({ queryKey });
  const conversationLists = () => {
    invalidate(queryKeys.conversations);
    invalidate(queryKeys.unread);
  };
  return {
    ready: ({ resumed }: LiveEventData<'ready'>) => {
      // A new connection (not a resume): whatever happened while there was none may be missing on screen.
      if (!resumed && (readyBefore || reopened())) void client.invalidateQueries({ type: 'active' });
      // The first: what was loaded before the stream opened (the page's first screen; the stream starts after it)
      // may have changed before the stream listened. Not what loaded since: that is no older than the stream.
      else if (!readyBefore) {
        const since = firstOpenedAt();
        void client.invalidateQueries({
          type: 'active',
          predicate: (query) => query.state.dataUpdatedAt > 0 && query.state.dataUpdatedAt < since,
        });
      }
      readyBefore = true;
    },
    reset: () => void client.invalidateQueries(),
    'message.created': ({ booking_id, message }: LiveEventData<'message.created'>) => {
      addMessageToCache(client, booking_id, message);
      conversationLists();
    },
    'conversation.read': ({ booking_id, reader_id, read_at }: LiveEventData<'conversation.read'>) => {
      if (reader_id !== userId) setOtherReadAt(client, booking_id, read_at);
      else conversationLists();
    },
    'booking.changed': ({ booking_id, request_id }: LiveEventData<'booking.changed'>) => {
      invalidate(queryKeys.bookingDetail(booking_id));
      invalidate(queryKeys.requestDetail(request_id));
      invalidate(queryKeys.myBookings);
      invalidate(queryKeys.myRequests);
      invalidate(queryKeys.browseRequests);
      invalidate(queryKeys.dashboard);
      // The conversation may have closed with the booking.
      invalidate(queryKeys.conversation(booking_id));
      invalidate(queryKeys.conversations);
    },
    'dispute.changed': ({ booking_id }: LiveEventData<'dispute.changed'>) => {
      invalidate(queryKeys.bookingDetail(booking_id));
    },
    'review.changed': ({ booking_id, published }: LiveEventData<'review.changed'>) => {
      invalidate(queryKeys.bookingReviews(booking_id));
      // Published reviews change profiles and the ratings on every card.
      if (published) {
        invalidate(queryKeys.users);
        invalidate(queryKeys.browseRides);
        invalidate(queryKeys.browseRequests);
        invalidate(queryKeys.requests);
      }
    },
    // The list and the bell reload (an updated message notification moves to the top with its new words).
    'notification.created': () => invalidate(queryKeys.notifications),
    'notification.read': () => invalidate(queryKeys.notifications),
  } satisfies { [N in LiveEventName]: (data: LiveEventData<N>) => void };
}

/**
 * Opens the app's one live stream (`GET /api/events`) and keeps the query cache in step with it. The browser
 * reconnects by itself and resends Last-Event-ID; once it has given up (CLOSED), the stream is opened again when
 * the tab is shown again or the device is back online. Returns the function that closes it for good.
 */
export function connectLiveEvents(client: QueryClient, userId: string, Source: EventSourceConstructor): () => void {
  let opened = 0;
  let firstOpenedAt = 0;
  const on = handlers(
    client,
    userId,
    () => opened > 1,
    () => firstOpenedAt,
  ) as Record<LiveEventName, (data: unknown) => void>;
  let source: EventSource | null = null;

  const open = () => {
    opened += 1;
    if (opened === 1) firstOpenedAt = Date.now();
    const es = new Source('/api/events');
    source = es;
    for (const name of LIVE_EVENT_NAMES) {
      es.addEventListener(name, (event) => {
        let json: unknown;
        try {
          json = JSON.parse(String((event as MessageEvent).data));
        } catch {
          return;
        }
        const parsed = liveEventSchemas[name].safeParse(json);
        if (parsed.success) on[name](parsed.data);
      });
    }
    es.addEventListener('error', () => {
      if (es.readyState === CLOSED) es.close();
    });
  };
  const revive = () => {
    if (document.visibilityState === 'hidden') return;
    if (source?.readyState === CLOSED) open();
  };

  open();
  document.addEventListener('visibilitychange', revive);
  window.addEventListener('online', revive);
  return () => {
    document.removeEventListener('visibilitychange', revive);
    window.removeEventListener('online', revive);
    source?.close();
  };
}

/** Keeps the live stream open while the dashboard is mounted; `Source` is injectable for tests. */
export function useLiveEvents(userId: string, Source: EventSourceConstructor | undefined = globalThis.EventSource) {
  const client = useQueryClient();
  useEffect(() => (Source ? connectLiveEvents(client, userId, Source) : undefined), [client, userId, Source]);
}

/** The dashboard layout's live stream, as an element. */
export function LiveEvents({ userId }: { userId: string }) {
  useLiveEvents(userId);
  return null;
}
