import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConversationPage, Message } from '@shared/messages';
import type { ConversationData } from './conversation-cache';
import { connectLiveEvents, type EventSourceConstructor } from './live-events';
import { queryKeys } from './query-keys';

/** The browser's EventSource as the stream drives it: named events, errors and the ready state. */
class FakeEventSource extends EventTarget {
  static instances: FakeEventSource[] = [];
  readyState = 0;
  constructor(readonly url: string) {
    super();
    FakeEventSource.instances.push(this);
  }
  emit(name: string, data: unknown) {
    this.dispatchEvent(new MessageEvent(name, { data: JSON.stringify(data) }));
  }
  fail(readyState: number) {
    this.readyState = readyState;
    this.dispatchEvent(new Event('error'));
  }
  close() {
    this.readyState = 2;
  }
}
const Source = FakeEventSource as unknown as EventSourceConstructor;
const latest = () => FakeEventSource.instances[FakeEventSource.instances.length - 1]!;

const ME = '00000000-0000-4000-8000-000000000001';
const OTHER = '00000000-0000-4000-8000-000000000002';
const BOOKING = '00000000-0000-4000-8000-0000000000b1';
const REQUEST = '00000000-0000-4000-8000-0000000000e1';

const msg = (id: string, over: Partial<Message> = {}): Message => ({
  id: `00000000-0000-4000-8000-${id.padStart(12, '0')}`,
  booking_id: BOOKING,
  sender_id: OTHER,
  client_id: `00000000-0000-4000-9000-${id.padStart(12, '0')}`,
  body: `Message ${id}`,
  created_at: '2026-05-01T10:00:00.000Z',
  ...over,
});
const page = (items: Message[]): ConversationPage => ({
  items,
  next_cursor: null,
  state: 'open',
  other_read_at: null,
  closes_at: null,
});

let client: QueryClient;
let stop: () => void;
const invalidated = (key: readonly unknown[]) => client.getQueryState(key)?.isInvalidated;
const conversation = () => client.getQueryData<ConversationData>(queryKeys.conversation(BOOKING));

beforeEach(() => {
  FakeEventSource.instances = [];
  client = new QueryClient();
  for (const key of [
    queryKeys.conversations,
    queryKeys.unread,
    queryKeys.bookingDetail(BOOKING),
    queryKeys.requestDetail(REQUEST),
    queryKeys.myBookingsAs('driver'),
    queryKeys.myRequests,
    queryKeys.browseRequests,
    queryKeys.dashboard,
    queryKeys.myRides,
  ]) {
    client.setQueryData(key, {});
  }
  client.setQueryData<ConversationData>(queryKeys.conversation(BOOKING), {
    pages: [page([msg('1')])],
    pageParams: [null],
  });
  stop = connectLiveEvents(client, ME, Source);
});
afterEach(() => stop());

describe('live events', () => {
  it("opens one stream on '/api/events'", () => {
    expect(FakeEventSource.instances.map((s) => s.url)).toEqual(['/api/events']);
  });

  it('a new message goes into its open conversation once, and the lists and the badge reload', () => {
    latest().emit('message.created', { booking_id: BOOKING, message: msg('2') });
    latest().emit('message.created', { booking_id: BOOKING, message: msg('2') });
    // The answer to my send already put it there under its client_id: not again.
    latest().emit('message.created', { booking_id: BOOKING, message: { ...msg('1'), id: msg('9').id } });
    expect(conversation()!.pages[0]!.items.map((m) => m.body)).toEqual(['Message 2', 'Message 1']);
    expect(invalidated(queryKeys.conversations)).toBe(true);
    expect(invalidated(queryKeys.unread)).toBe(true);
    expect(invalidated(queryKeys.dashboard)).toBe(false);
  });

  it("the other person's read mark becomes 'Seen'; my own read elsewhere reloads the counts", () => {
    latest().emit('conversation.read', { booking_id: BOOKING, reader_id: OTHER, read_at: '2026-05-01T11:00:00.000Z' });
    expect(conversation()!.pages[0]!.other_read_at).toBe('2026-05-01T11:00:00.000Z');
    expect(invalidated(queryKeys.unread)).toBe(false);
    latest().emit('conversation.read', { booking_id: BOOKING, reader_id: ME, read_at: '2026-05-01T12:00:00.000Z' });
    expect(conversation()!.pages[0]!.other_read_at).toBe('2026-05-01T11:00:00.000Z');
    expect(invalidated(queryKeys.unread)).toBe(true);
  });

  it('a booking change reloads the booking, its request, the booking and request lists and the dashboard', () => {
    latest().emit('booking.changed', {
      booking_id: BOOKING,
      request_id: REQUEST,
      status: 'confirmed',
      event_type: 'chosen',
    });
    for (const key of [
      queryKeys.bookingDetail(BOOKING),
      queryKeys.requestDetail(REQUEST),
      queryKeys.myBookingsAs('driver'),
      queryKeys.myRequests,
      queryKeys.browseRequests,
      queryKeys.dashboard,
    ]) {
      expect(invalidated(key), JSON.stringify(key)).toBe(true);
    }
    expect(invalidated(queryKeys.myRides)).toBe(false);
  });

  it("'reset' reloads everything; malformed events change nothing", () => {
    latest().emit('booking.changed', { booking_id: 'nope' });
    latest().dispatchEvent(new MessageEvent('message.created', { data: '{not json' }));
    expect(invalidated(queryKeys.dashboard)).toBe(false);
    latest().emit('reset', {});
    expect(invalidated(queryKeys.myRides)).toBe(true);
    expect(invalidated(queryKeys.conversation(BOOKING))).toBe(true);
  });

  it('a fresh connection after the first reloads what is on screen; a resumed one does not', () => {
    // The dashboard is on screen (observed); My Rides is only cached. The dashboard loads after the stream opened
    // (beforeEach set it before, maybe a millisecond earlier: the first 'ready' would rightly reload it).
    client.setQueryData(queryKeys.dashboard, {});
    const onScreen = new QueryObserver(client, {
      queryKey: queryKeys.dashboard,
      queryFn: () => ({}),
      staleTime: Infinity,
    });
    const unsubscribe = onScreen.subscribe(() => {});
    latest().emit('ready', { resumed: false });
    expect(invalidated(queryKeys.dashboard)).toBe(false);
    latest().emit('ready', { resumed: true });
    expect(invalidated(queryKeys.dashboard)).toBe(false);
    latest().emit('ready', { resumed: false });
    expect(invalidated(queryKeys.dashboard)).toBe(true);
    expect(invalidated(queryKeys.myRides)).toBe(false);
    unsubscribe();
  });

  it('the first connection reloads what was on screen before the stream opened (a change may have come between)', async () => {
    // Loaded before this stream: in the test's beforeEach the stream opened already, so load, then open another.
    const onScreen = new QueryObserver(client, {
      queryKey: queryKeys.myRides,
      queryFn: () => ({}),
      staleTime: Infinity,
    });
    const unsubscribe = onScreen.subscribe(() => {});
    await vi.waitFor(() => expect(client.getQueryState(queryKeys.myRides)?.dataUpdatedAt).toBeGreaterThan(0));
    await new Promise((resolve) => setTimeout(resolve, 2));
    const stop = connectLiveEvents(client, 'me', FakeEventSource as unknown as EventSourceConstructor);
    latest().emit('ready', { resumed: false });
    expect(invalidated(queryKeys.myRides)).toBe(true);
    stop();
    unsubscribe();
  });

  it('a stream opened again after the browser gave up reloads what is on screen, even if it never got ready', () => {
    const onScreen = new QueryObserver(client, {
      queryKey: queryKeys.dashboard,
      queryFn: () => ({}),
      staleTime: Infinity,
    });
    const unsubscribe = onScreen.subscribe(() => {});
    latest().fail(2);
    window.dispatchEvent(new Event('online'));
    latest().emit('ready', { resumed: false });
    expect(invalidated(queryKeys.dashboard)).toBe(true);
    unsubscribe();
  });

  it('stops when the browser gives up, and reconnects when the tab is shown again or the device is online', () => {
    const first = latest();
    first.fail(0); // connecting again by itself: nothing to do
    expect(FakeEventSource.instances).toHaveLength(1);
    window.dispatchEvent(new Event('online'));
    expect(FakeEventSource.instances).toHaveLength(1);
    first.fail(2);
    expect(FakeEventSource.instances).toHaveLength(1);
    document.dispatchEvent(new Event('visibilitychange'));
    expect(FakeEventSource.instances).toHaveLength(2);
    latest().fail(2);
    window.dispatchEvent(new Event('online'));
    expect(FakeEventSource.instances).toHaveLength(3);
  });

  it('closes the stream when the dashboard goes away', () => {
    const source = latest();
    stop();
    expect(source.readyState).toBe(2);
    window.dispatchEvent(new Event('online'));
    expect(FakeEventSource.instances).toHaveLength(1);
  });
});
