import { onlineManager, QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '@/test/render';
import { ApiError, isQueued, QUEUED_MESSAGE } from '../lib/api-client';
import { memorySendQueue, SendQueue, type Change, type SendQueueStorage } from './send-queue';
import { queryKeys } from '../lib/query-keys';

const KEY_HEADER = 'Idempotency-Key';

function signIn(client: QueryClient, id: string) {
  client.setQueryData(queryKeys.session, { user: { id, is_admin: false }, session: { id: `s-${id}` } });
}

const post = (label: string, body: unknown = { label }): Change => ({
  label,
  method: 'POST',
  path: '/rides',
  body,
  refresh: [queryKeys.rides],
});

let client: QueryClient;
let storage: SendQueueStorage;
let sendQueue: SendQueue;
let stop: () => void;

function startSendQueue() {
  sendQueue = new SendQueue(storage);
  stop = sendQueue.start(client);
}

beforeEach(() => {
  onlineManager.setOnline(true);
  client = new QueryClient();
  signIn(client, 'u1');
  storage = memorySendQueue();
  startSendQueue();
});

afterEach(() => {
  stop();
  onlineManager.setOnline(true);
  vi.unstubAllGlobals();
});

const caught = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (err: unknown) => err,
  );

describe('the send queue: changes made with no signal', () => {
  it('keeps a change made offline without trying the network, and sends it once when the signal returns', async () => {
    const calls = stubApi({ 'POST /rides': () => ({ status: 201, body: { id: 'r1' } }) });
    onlineManager.setOnline(false);
    const err = await caught(sendQueue.send(post('Post ride A → B')));
    expect(isQueued(err)).toBe(true);
    expect((err as ApiError).message).toBe(QUEUED_MESSAGE);
    expect(calls).toHaveLength(0);
    expect(sendQueue.waiting().map((e) => e.label)).toEqual(['Post ride A → B']);

    onlineManager.setOnline(true);
    await vi.waitFor(() => expect(sendQueue.waiting()).toHaveLength(0));
    expect(calls).toHaveLength(1);
    expect(calls[0]?.body).toEqual({ label: 'Post ride A → B' });
    expect(calls[0]?.headers.get(KEY_HEADER)).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('keeps a change whose request failed on the line, and sends it again with the same key', async () => {
    let up = false;
    const calls = stubApi({
      'POST /rides': () => {
        if (!up) throw new TypeError('Failed to fetch');
        return { status: 201, body: { id: 'r1' } };
      },
    });
    expect(isQueued(await caught(sendQueue.send(post('Post ride A → B'))))).toBe(true);
    expect(sendQueue.waiting()).toHaveLength(1);
    // The failed request marked the app offline (offline/connectivity.ts); the signal returns.
    expect(onlineManager.isOnline()).toBe(false);
    up = true;
    onlineManager.setOnline(true);
    await vi.waitFor(() => expect(sendQueue.waiting()).toHaveLength(0));
    expect(calls).toHaveLength(2);
    expect(calls[1]?.headers.get(KEY_HEADER)).toBe(calls[0]?.headers.get(KEY_HEADER));
  });

  it('sends in the order the changes were made; a refused one leaves the list, the rest go on', async () => {
    const sent: string[] = [];
    stubApi({
      'POST /rides': ({ body }) => {
        const { label } = body as { label: string };
        sent.push(label);
        return label === 'second'
          ? { status: 409, body: { code: 'request_unavailable', message: 'Taken meanwhile' } }
          : { status: 201, body: {} };
      },
    });
    onlineManager.setOnline(false);
    for (const label of ['first', 'second', 'third']) await caught(sendQueue.send(post(label)));
    expect(sendQueue.waiting().map((e) => e.label)).toEqual(['first', 'second', 'third']);
    onlineManager.setOnline(true);
    await vi.waitFor(() => expect(sendQueue.waiting()).toHaveLength(0));
    expect(sent).toEqual(['first', 'second', 'third']);
  });

  it('stops at a change the server could not take now (503, 401, no answer) and keeps it and those behind it', async () => {
    const sent: string[] = [];
    stubApi({
      'POST /rides': ({ body }) => {
        sent.push((body as { label: string }).label);
        return { status: 503, body: { code: 'unavailable', message: 'Try later' } };
      },
    });
    onlineManager.setOnline(false);
    for (const label of ['first', 'second']) await caught(sendQueue.send(post(label)));
    await sendQueue.flush();
    onlineManager.setOnline(true);
    await sendQueue.flush();
    expect(sent).toEqual(['first']);
    expect(sendQueue.waiting().map((e) => e.label)).toEqual(['first', 'second']);
  });

  it('a new change made while earlier ones wait goes behind them', async () => {
    const sent: string[] = [];
    stubApi({
      'POST /rides': ({ body }) => {
        sent.push((body as { label: string }).label);
        return { status: 201, body: {} };
      },
    });
    onlineManager.setOnline(false);
    await caught(sendQueue.send(post('first')));
    onlineManager.setOnline(true);
    await sendQueue.send(post('second'));
    expect(sent).toEqual(['first', 'second']);
    expect(sendQueue.waiting()).toHaveLength(0);
  });

  it('discards a change on request, and keeps the same change made twice only once', async () => {
    onlineManager.setOnline(false);
    stubApi({});
    await caught(sendQueue.send(post('Delete ride A → B', {})));
    await caught(sendQueue.send(post('Delete ride A → B', {})));
    await caught(sendQueue.send(post('Post ride C → D')));
    expect(sendQueue.waiting().map((e) => e.label)).toEqual(['Delete ride A → B', 'Post ride C → D']);
    await sendQueue.discard(sendQueue.waiting()[0]!.key);
    expect(sendQueue.waiting().map((e) => e.label)).toEqual(['Post ride C → D']);
  });

  it('survives a reload: a new page reads the changes back and sends them', async () => {
    onlineManager.setOnline(false);
    stubApi({});
    await caught(sendQueue.send(post('Post ride A → B')));
    const key = sendQueue.waiting()[0]!.key;
    stop();

    const calls = stubApi({ 'POST /rides': () => ({ status: 201, body: {} }) });
    startSendQueue();
    await vi.waitFor(() => expect(sendQueue.waiting().map((e) => e.key)).toEqual([key]));
    onlineManager.setOnline(true);
    await vi.waitFor(() => expect(sendQueue.waiting()).toHaveLength(0));
    expect(calls.map((c) => c.headers.get(KEY_HEADER))).toEqual([key]);
  });

  it("another person signing in on the device removes the previous person's changes, unsent", async () => {
    onlineManager.setOnline(false);
    stubApi({});
    await caught(sendQueue.send(post('private change')));
    const calls = stubApi({ 'POST /rides': () => ({ status: 201, body: {} }) });
    signIn(client, 'u2');
    await vi.waitFor(() => expect(sendQueue.all()).toHaveLength(0));
    onlineManager.setOnline(true);
    await sendQueue.flush();
    expect(calls).toHaveLength(0);
  });

  it('a session that ended (no one signed in) sends nothing; the same person back sends what waited', async () => {
    onlineManager.setOnline(false);
    stubApi({});
    await caught(sendQueue.send(post('Post ride A → B')));
    client.setQueryData(queryKeys.session, { user: null, session: null });
    const calls = stubApi({ 'POST /rides': () => ({ status: 201, body: {} }) });
    onlineManager.setOnline(true);
    await sendQueue.flush();
    expect(calls).toHaveLength(0);
    expect(sendQueue.all()).toHaveLength(1);
    signIn(client, 'u1');
    await vi.waitFor(() => expect(sendQueue.all()).toHaveLength(0));
    expect(calls).toHaveLength(1);
  });

  it('signed out, a write is simply sent (nothing to keep it for)', async () => {
    client.setQueryData(queryKeys.session, { user: null, session: null });
    stubApi({
      'POST /rides': () => {
        throw new TypeError('Failed to fetch');
      },
    });
    const err = await caught(sendQueue.send(post('x')));
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe('network_error');
    expect(sendQueue.all()).toHaveLength(0);
  });

  it('a handover kept with its photo is sent as a file upload', async () => {
    const calls = stubApi({ 'POST /bookings/b1/complete': () => ({ status: 200, body: {} }) });
    onlineManager.setOnline(false);
    const photo = new File(['jpeg bytes'], 'door.jpg', { type: 'image/jpeg' });
    await caught(
      sendQueue.send({
        label: 'Complete the delivery',
        method: 'POST',
        path: '/bookings/b1/complete',
        form: [
          ['code', '123456'],
          ['photo', photo],
        ],
        refresh: [],
      }),
    );
    onlineManager.setOnline(true);
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    const sent = calls[0]?.body as { code: string; photo: File };
    expect(sent.code).toBe('123456');
    expect(sent.photo.name).toBe('door.jpg');
  });

  it('the lists a sent change touches reload', async () => {
    stubApi({ 'POST /rides': () => ({ status: 201, body: {} }) });
    client.setQueryData(queryKeys.myRides, { items: [] });
    onlineManager.setOnline(false);
    await caught(sendQueue.send(post('Post ride A → B')));
    expect(client.getQueryState(queryKeys.myRides)?.isInvalidated).toBe(false);
    onlineManager.setOnline(true);
    await vi.waitFor(() => expect(client.getQueryState(queryKeys.myRides)?.isInvalidated).toBe(true));
  });
});

describe('the send queue: changes to one path keep the order they were made in', () => {
  const message = (n: number): Change => ({
    label: `Message: ${n}`,
    method: 'POST',
    path: '/bookings/b1/messages',
    body: { body: String(n), client_id: `c${n}` },
    refresh: [],
  });
  const numbers = Array.from({ length: 12 }, (_, i) => i + 1);

  it('twelve messages sent at once reach the server one after another, in order, however slow each answer', async () => {
    const stored: string[] = [];
    let inFlight = 0;
    let most = 0;
    stubApi({
      'POST /bookings/b1/messages': async ({ body }) => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        // Earlier messages answer more slowly: sent side by side, later ones would be stored first.
        const n = Number((body as { body: string }).body);
        await new Promise((resolve) => setTimeout(resolve, (13 - n) * 2));
        stored.push((body as { body: string }).body);
        inFlight -= 1;
        return { status: 201, body: {} };
      },
    });
    await Promise.all(numbers.map((n) => sendQueue.send(message(n))));
    expect(stored).toEqual(numbers.map(String));
    expect(most).toBe(1);
  });

  it('a message that fails on the line is kept, the ones typed after it wait behind it, and all go in order', async () => {
    const stored: string[] = [];
    let lineUp = true;
    let cut = false;
    const calls = stubApi({
      'POST /bookings/b1/messages': ({ body }) => {
        const text = (body as { body: string }).body;
        // The signal goes as message 5 is on its way.
        if (text === '5' && !cut) [cut, lineUp] = [true, false];
        if (!lineUp) throw new TypeError('Failed to fetch');
        stored.push(text);
        return { status: 201, body: {} };
      },
    });
    const results = await Promise.all(numbers.map((n) => caught(sendQueue.send(message(n)))));
    expect(results.slice(0, 4)).toEqual([undefined, undefined, undefined, undefined]);
    expect(results.slice(4).every(isQueued)).toBe(true);
    expect(sendQueue.waiting().map((e) => e.label)).toEqual(numbers.slice(4).map((n) => `Message: ${n}`));

    lineUp = true;
    onlineManager.setOnline(true);
    await vi.waitFor(() => expect(sendQueue.waiting()).toHaveLength(0));
    expect(stored).toEqual(numbers.map(String));
    // Message 5 went again with the key it was first sent with: a copy that did arrive is answered, not stored twice.
    const fives = calls.filter((c) => (c.body as { body: string }).body === '5');
    expect(fives.map((c) => c.headers.get(KEY_HEADER))).toEqual([
      fives[0]?.headers.get(KEY_HEADER),
      fives[0]?.headers.get(KEY_HEADER),
    ]);
  });

  it('changes to other paths are not held up', async () => {
    let release: () => void = () => {};
    const slow = new Promise<void>((resolve) => (release = resolve));
    stubApi({
      'POST /bookings/b1/messages': async () => {
        await slow;
        return { status: 201, body: {} };
      },
      'POST /rides': () => ({ status: 201, body: { id: 'r1' } }),
    });
    const first = sendQueue.send(message(1));
    await expect(sendQueue.send(post('Post ride A → B'))).resolves.toEqual({ id: 'r1' });
    release();
    await first;
  });
});
