import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '@/test/render';
import { api, ApiError, newIdempotencyKey, NO_CONNECTION_MESSAGE, REQUEST_TIMEOUT_MS } from './api-client';

afterEach(() => vi.unstubAllGlobals());

async function failure(body: unknown, status = 409): Promise<ApiError> {
  stubApi({ 'GET /thing': () => ({ status, body }) });
  const err = await api('/thing').catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

describe('api client errors', () => {
  it("keeps the server's code and message when the body is the shared error envelope", async () => {
    const err = await failure({ code: 'already_accepted', message: "You've already accepted this request" });
    expect([err.status, err.code, err.message]).toEqual([
      409,
      'already_accepted',
      "You've already accepted this request",
    ]);
  });

  it.each([
    ['a message without a code', { message: 'half an envelope' }],
    ['a code that is not a string', { code: 7, message: 'odd' }],
    ['no JSON object at all', ['code', 'message']],
  ])('treats %s as an unexpected response, never as the server speaking', async (_what, body) => {
    const err = await failure(body, 502);
    expect([err.status, err.code]).toEqual([502, 'unexpected_response']);
    expect(err.message).toBe('Something went wrong on our side. Please try again.');
  });
});

describe('api client bodies', () => {
  it('sends a plain body as JSON', async () => {
    const calls = stubApi({ 'POST /thing': () => ({ body: { ok: true } }) });
    await api('/thing', { method: 'POST', body: { a: 1 } });
    expect(calls[0]?.body).toEqual({ a: 1 });
    expect(calls[0]?.headers.get('Content-Type')).toBe('application/json');
  });

  it('sends FormData as multipart, leaving the Content-Type (with its boundary) to the browser', async () => {
    const calls = stubApi({ 'POST /upload': () => ({ body: { ok: true } }) });
    const form = new FormData();
    form.set('code', '123456');
    form.set('photo', new File(['x'], 'handoff.png', { type: 'image/png' }));
    await api('/upload', { method: 'POST', body: form });
    const sent = calls[0]?.body as { code: string; photo: File };
    expect(sent.code).toBe('123456');
    expect(sent.photo.name).toBe('handoff.png');
    expect(calls[0]?.headers.has('Content-Type')).toBe(false);
  });
});

describe('api client idempotency keys', () => {
  it('gives every write a new key, reuses a key it is given, and sends none with a read', async () => {
    const calls = stubApi({
      'POST /thing': () => ({ body: { ok: true } }),
      'DELETE /thing': () => ({ status: 204 }),
      'GET /thing': () => ({ body: { ok: true } }),
    });
    await api('/thing', { method: 'POST', body: { a: 1 } });
    await api('/thing', { method: 'POST', body: { a: 1 } });
    await api('/thing', { method: 'DELETE', idempotencyKey: 'my-key-1' });
    await api('/thing');
    const keys = calls.map((c) => c.headers.get('Idempotency-Key'));
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[0]).not.toBe(keys[1]);
    expect(keys.slice(2)).toEqual(['my-key-1', null]);
  });

  it('makes a version-4 UUID from random bytes where crypto.randomUUID is missing (plain http)', () => {
    vi.stubGlobal('crypto', { getRandomValues: (a: Uint8Array) => a.fill(0xff) });
    expect(newIdempotencyKey()).toBe('ffffffff-ffff-4fff-bfff-ffffffffffff');
  });
});

describe('api client time limit', () => {
  /** A line that never answers: fetch settles only when its signal aborts, as a browser's does. */
  function silentLine() {
    const signals: AbortSignal[] = [];
    vi.stubGlobal(
      'fetch',
      (_url: string, init: RequestInit) =>
        new Promise((_resolve, reject) => {
          signals.push(init.signal!);
          init.signal!.addEventListener('abort', () => reject(new DOMException('The user aborted.', 'AbortError')));
        }),
    );
    return signals;
  }
  afterEach(() => vi.useRealTimers());

  it(`gives up after ${REQUEST_TIMEOUT_MS / 1000} seconds with 'No connection. Please try again.'`, async () => {
    vi.useFakeTimers();
    silentLine();
    const call = api('/thing', { method: 'POST', body: {} }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
    let settled = false;
    void call.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const err = (await call) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect([err.code, err.message]).toEqual(['timeout', NO_CONNECTION_MESSAGE]);
  });

  it("passes the caller's own abort on as an AbortError, not as a lost connection", async () => {
    silentLine();
    const controller = new AbortController();
    const call = api('/thing', { signal: controller.signal }).catch((e: unknown) => e);
    controller.abort();
    expect(((await call) as Error).name).toBe('AbortError');
  });

  it('allows an upload more time by its size (a 10 MB photo: the usual limit and 500 s more)', async () => {
    vi.useFakeTimers();
    const signals = silentLine();
    const form = new FormData();
    form.set('photo', new File([new Uint8Array(10_000_000)], 'handoff.jpg', { type: 'image/jpeg' }));
    const call = api('/upload', { method: 'POST', body: form }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS + 500_000 - 1);
    expect(signals[0]!.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(((await call) as ApiError).code).toBe('timeout');
  });
});

describe('api client retries of a change without an answer', () => {
  it('sends the same change again with the same key until the server answers; then a new key', async () => {
    const keys: (string | null)[] = [];
    let answer = false;
    vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
      keys.push(new Headers(init.headers).get('Idempotency-Key'));
      if (!answer) throw new TypeError('Failed to fetch');
      return new Response(JSON.stringify({ id: 'r1' }), { status: 201 });
    });
    const post = (body: unknown) => api('/rides', { method: 'POST', body }).catch((e: unknown) => e);
    expect(((await post({ origin: 'A' })) as ApiError).message).toBe(NO_CONNECTION_MESSAGE);
    await post({ origin: 'A' });
    // Another change gets its own key.
    await post({ origin: 'B' });
    answer = true;
    expect(await post({ origin: 'A' })).toEqual({ id: 'r1' });
    // Answered: the same values again are a new change.
    await post({ origin: 'A' });
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
    expect(keys[3]).toBe(keys[0]);
    expect(keys[4]).not.toBe(keys[0]);
  });
});
