/**
 * Answers to API requests that the page's HTML started before the app's scripts arrived (src/client/early-requests.ts).
 * The API client takes one instead of sending the same GET again, so the dashboard's first queries are answered as
 * soon as the app asks. Each is used once, and only while fresh: a list asked for later must be current.
 */
declare global {
  // Set by src/client/early-requests.ts, which must import nothing at run time: an import would put it behind the
  // chunk it imports from (CI's build refuses an early chunk with imports, vite.config.ts), and its requests would
  // then start only once that chunk had downloaded. A global declared here keeps both sides on one typed name.
  var __rrEarlyRequests: EarlyRequests | undefined;
}
/** Longer than a first visit on a slow line takes to start the app (about 4 s), short enough to never be stale. */
export const EARLY_MAX_AGE_MS = 15_000;

export interface EarlyRequest {
  /** The request's URL ('/api/auth/session'). */
  path: string;
  /** Made only when this media query matches (the part of the page that needs it is shown). */
  media?: string;
}
export type EarlyRequests = Map<string, { at: number; response: Promise<Response> }>;

/**
 * fetch(url, init), unless the page started the same GET early and nobody has used its answer yet: then that answer,
 * as a promise that also gives up when init.signal aborts (the API client's time limit, a cancelled query), as
 * fetch itself would.
 */
export function fetchOrEarly(url: string, init: RequestInit & { signal: AbortSignal }): Promise<Response> {
  const early = globalThis.__rrEarlyRequests;
  const entry = (init.method ?? 'GET') === 'GET' && init.body == null ? early?.get(url) : undefined;
  if (!entry) return fetch(url, init);
  early!.delete(url);
  if (performance.now() - entry.at > EARLY_MAX_AGE_MS) return fetch(url, init);
  const { signal } = init;
  return new Promise<Response>((resolve, reject) => {
    const abort = () =>
      reject(signal.reason instanceof Error ? signal.reason : new DOMException('Aborted', 'AbortError'));
    if (signal.aborted) return abort();
    signal.addEventListener('abort', abort, { once: true });
    entry.response.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}
