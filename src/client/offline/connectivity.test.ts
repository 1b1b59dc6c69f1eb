import { onlineManager } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '@/test/render';
import { api } from '../lib/api-client';
import { CHECK_DELAYS_MS, followConnectivity } from './connectivity';

let stop = () => {};
beforeEach(() => {
  // providers.tsx (imported by the test helpers) follows already; this test follows with its own.
  stop = followConnectivity();
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});
afterEach(() => {
  stop();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('connectivity: by what requests meet, not the browser flag alone', () => {
  it('a request that meets no connection marks the app offline; the first answer to a later check, online', async () => {
    let up = false;
    const calls = stubApi({
      'GET /rides/mine': () => {
        throw new TypeError('Failed to fetch');
      },
      'GET /health': () => {
        if (!up) throw new TypeError('Failed to fetch');
        return { body: { status: 'ok' } };
      },
    });
    expect(onlineManager.isOnline()).toBe(true);
    await expect(api('/rides/mine')).rejects.toMatchObject({ code: 'network_error' });
    expect(onlineManager.isOnline()).toBe(false);

    await vi.advanceTimersByTimeAsync(CHECK_DELAYS_MS[0]!);
    expect(calls.filter((c) => c.path === '/health')).toHaveLength(1);
    expect(onlineManager.isOnline()).toBe(false);

    up = true;
    await vi.advanceTimersByTimeAsync(CHECK_DELAYS_MS[1]!);
    expect(calls.filter((c) => c.path === '/health')).toHaveLength(2);
    expect(onlineManager.isOnline()).toBe(true);

    // Online again, nothing more is checked.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls.filter((c) => c.path === '/health')).toHaveLength(2);
  });

  it('a refusal from the server is not a lost connection', async () => {
    stubApi({ 'GET /rides/mine': () => ({ status: 503, body: { code: 'unavailable', message: 'Busy' } }) });
    await expect(api('/rides/mine')).rejects.toMatchObject({ status: 503 });
    expect(onlineManager.isOnline()).toBe(true);
  });
});
