import { afterEach, describe, expect, it, vi } from 'vitest';
import { EARLY_MAX_AGE_MS, fetchOrEarly, type EarlyRequests } from './early-responses';

function early(url: string, response: Promise<Response>, at = performance.now()): EarlyRequests {
  const map: EarlyRequests = new Map([[url, { at, response }]]);
  globalThis.__rrEarlyRequests = map;
  return map;
}

afterEach(() => {
  globalThis.__rrEarlyRequests = undefined;
  vi.unstubAllGlobals();
});

describe('fetchOrEarly', () => {
  it("answers a GET with the page's early response once, then asks the network", async () => {
    const fetch = vi.fn(async () => new Response('{"n":2}'));
    vi.stubGlobal('fetch', fetch);
    early('/api/dashboard', Promise.resolve(new Response('{"n":1}')));
    const signal = new AbortController().signal;
    expect(await (await fetchOrEarly('/api/dashboard', { signal })).json()).toEqual({ n: 1 });
    expect(fetch).not.toHaveBeenCalled();
    expect(await (await fetchOrEarly('/api/dashboard', { signal })).json()).toEqual({ n: 2 });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('never answers a write, another path or a stale early request with it', async () => {
    const fetch = vi.fn(async () => new Response('net'));
    vi.stubGlobal('fetch', fetch);
    const signal = new AbortController().signal;
    early('/api/dashboard', Promise.resolve(new Response('early')));
    await fetchOrEarly('/api/dashboard', { method: 'POST', body: '{}', signal });
    await fetchOrEarly('/api/other', { signal });
    early('/api/dashboard', Promise.resolve(new Response('early')), performance.now() - EARLY_MAX_AGE_MS - 1);
    expect(await (await fetchOrEarly('/api/dashboard', { signal })).text()).toBe('net');
    expect(fetch).toHaveBeenCalledTimes(3);
  });

  it('gives up when its signal aborts, as fetch would (the time limit, a cancelled query)', async () => {
    early('/api/dashboard', new Promise<Response>(() => undefined));
    const controller = new AbortController();
    const pending = fetchOrEarly('/api/dashboard', { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('passes on a failed early request as fetch would fail', async () => {
    early('/api/dashboard', Promise.reject(new TypeError('Failed to fetch')));
    await expect(fetchOrEarly('/api/dashboard', { signal: new AbortController().signal })).rejects.toThrow(
      'Failed to fetch',
    );
  });
});
