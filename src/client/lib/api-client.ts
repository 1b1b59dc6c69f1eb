import { SIGNED_IN_AS_HEADER, SIGNED_OUT } from '@shared/signed-in-as';
import { isErrorBody } from '@shared/error-body';
import { IDEMPOTENCY_HEADER } from '@shared/idempotency';
import { ApiError, NO_CONNECTION_MESSAGE } from './api-error';
import { fetchOrEarly } from './early-responses';

export { ApiError, isQueued, NO_CONNECTION_MESSAGE, QUEUED_MESSAGE, QueuedError } from './api-error';

/** No request waits longer for its answer (no button stays busy forever). */
export const REQUEST_TIMEOUT_MS = 15_000;

type ApiInit = {
  method?: string;
  body?: unknown;
  signal?: AbortSignal;
  /** For a write: the key of this change, so a repeat of it is answered without happening twice (a new one if unset). */
  idempotencyKey?: string;
  /** How long to wait for the answer (REQUEST_TIMEOUT_MS; longer for an upload, by its size). */
  timeoutMs?: number;
};

/**
 * An upload may take longer than the usual limit on a slow line: the limit plus a second for every 20 KB of files
 * (a 10 MB photo over 400 kbit/s takes about 200 s; this allows 515 s).
 */
function timeoutFor(body: FormData): number {
  let bytes = 0;
  body.forEach((value) => {
    if (value instanceof Blob) bytes += value.size;
  });
  return REQUEST_TIMEOUT_MS + Math.ceil(bytes / 20_000) * 1000;
}

let onNoConnection: (() => void) | undefined;

/**
 * Who is told when a request finds no connection (it failed on the line, or no answer came in time): the browser's
 * own online flag often says online with nothing getting through (offline/connectivity.ts).
 */
export function whenNoConnection(listener: (() => void) | undefined) {
  onNoConnection = listener;
}

let onAnswer: ((userId: string | null) => void) | undefined;

/**
 * Who is told whose session each answer came from (SIGNED_IN_AS_HEADER: a user id, or null when signed out), so the
 * page notices when the person signed in on this browser changed under it (lib/session-switch.ts).
 */
export function whenAnsweredAs(listener: ((userId: string | null) => void) | undefined) {
  onAnswer = listener;
}

const noConnection = (code: 'network_error' | 'timeout') => {
  onNoConnection?.();
  return new ApiError(0, code, NO_CONNECTION_MESSAGE);
};

/**
 * The caller's signal (a query cancelled, a dialog closed) and a timer, as one signal. `timedOut` tells which of
 * the two aborted a request: the caller's abort is passed on as it is, the timer's becomes a 'timeout' ApiError.
 * Written out because AbortSignal.any is missing on phones a few years old.
 */
function deadline(ms: number, outer?: AbortSignal) {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, ms);
  const onOuter = () => controller.abort(outer?.reason);
  if (outer?.aborted) onOuter();
  else outer?.addEventListener('abort', onOuter, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    done: () => {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onOuter);
    },
  };
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The keys of writes sent without an answer (no connection, or none in time), by what they sent: sending the same
 * change again (the same button pressed again after 'No connection') reuses the key, so if the first did reach the
 * server, the second gets its answer instead of making a duplicate. Any answer from the server forgets the key: the
 * same change made again after that is a new change. (Uploads are not matched: a FormData has no stable text.)
 */
const unanswered = new Map<string, string>();

/** A random UUID; crypto.randomUUID exists only on https and localhost, so plain http builds one from random bytes. */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Calls the API and answers the successful Response (a download reads its headers and body itself). A `body` is
 * sent as JSON, except FormData (a file upload), which goes as multipart/form-data: the browser then writes the
 * Content-Type with its boundary itself. Every write carries an Idempotency-Key (docs/weak-signal.md). A failure
 * throws ApiError; so does no answer within the time limit ('timeout'): the limit covers the wait for the answer's
 * headers here (a download then reads its body at the line's pace), and the whole body in api().
 */
export async function apiResponse(path: string, init: ApiInit = {}): Promise<Response> {
  const { res, limit } = await send(path, init);
  limit.done();
  return res;
}

/** Calls the API (see apiResponse) and answers the JSON body (nothing for a 204); the timeout covers the body too. */
export async function api<T>(path: string, init: ApiInit = {}): Promise<T> {
  const { res, limit } = await send(path, init);
  try {
    if (res.status === 204) return undefined as T;
    return (await res.json().catch((err: unknown) => {
      if (limit.timedOut()) throw noConnection('timeout');
      if ((err as Error).name === 'AbortError') throw err;
      return undefined;
    })) as T;
  } finally {
    limit.done();
  }
}

async function send(path: string, init: ApiInit) {
  const { body } = init;
  const multipart = body instanceof FormData;
  const method = init.method ?? 'GET';
  const headers: Record<string, string> = {};
  if (body !== undefined && !multipart) headers['Content-Type'] = 'application/json';
  const change =
    SAFE_METHODS.has(method) || multipart || init.idempotencyKey
      ? undefined
      : `${method} ${path} ${JSON.stringify(body) ?? ''}`;
  const key = SAFE_METHODS.has(method)
    ? undefined
    : (init.idempotencyKey ?? (change && unanswered.get(change)) ?? newIdempotencyKey());
  if (key) headers[IDEMPOTENCY_HEADER] = key;
  const limit = deadline(init.timeoutMs ?? (multipart ? timeoutFor(body) : REQUEST_TIMEOUT_MS), init.signal);
  let res: Response;
  try {
    // fetch, or the same GET that the page's HTML already started (lib/early-responses.ts).
    res = await fetchOrEarly(`/api${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : multipart ? body : JSON.stringify(body),
      credentials: 'same-origin',
      signal: limit.signal,
    });
  } catch (err) {
    limit.done();
    if (change && key) unanswered.set(change, key);
    if (limit.timedOut()) throw noConnection('timeout');
    if ((err as Error).name === 'AbortError') throw err;
    throw noConnection('network_error');
  }
  if (change) unanswered.delete(change);
  const signedInAs = res.headers.get(SIGNED_IN_AS_HEADER);
  if (signedInAs !== null) onAnswer?.(signedInAs === SIGNED_OUT ? null : signedInAs);
  if (!res.ok) {
    const payload: unknown = await res.json().catch(() => undefined);
    limit.done();
    if (isErrorBody(payload)) throw new ApiError(res.status, payload.code, payload.message);
    if (limit.timedOut()) throw noConnection('timeout');
    throw new ApiError(res.status, 'unexpected_response', 'Something went wrong on our side. Please try again.');
  }
  return { res, limit };
}
