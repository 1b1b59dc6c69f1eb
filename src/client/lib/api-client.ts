import { errorBodySchema } from '../../shared/errors';
import { IDEMPOTENCY_HEADER } from '../../shared/idempotency';

/** An API failure as the UI sees it: the server's stable code and a message fit to show. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

const NETWORK_ERROR_MESSAGE = 'Could not reach RuralRoute. Check your connection and try again.';

type ApiInit = {
  method?: string;
  body?: unknown;
  signal?: AbortSignal;
  /** For a write: the key of this change, so a repeat of it is answered without happening twice (a new one if unset). */
  idempotencyKey?: string;
};

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

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
 * throws ApiError.
 */
export async function apiResponse(path: string, init: ApiInit = {}): Promise<Response> {
  const { body } = init;
  const multipart = body instanceof FormData;
  const method = init.method ?? 'GET';
  const headers: Record<string, string> = {};
  if (body !== undefined && !multipart) headers['Content-Type'] = 'application/json';
  if (!SAFE_METHODS.has(method)) headers[IDEMPOTENCY_HEADER] = init.idempotencyKey ?? newIdempotencyKey();
  let res: Response;
  try {
    res = await fetch(`/api${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : multipart ? body : JSON.stringify(body),
      credentials: 'same-origin',
      signal: init.signal,
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError(0, 'network_error', NETWORK_ERROR_MESSAGE);
  }
  if (!res.ok) {
    const payload: unknown = await res.json().catch(() => undefined);
    const refusal = errorBodySchema.safeParse(payload);
    if (refusal.success) throw new ApiError(res.status, refusal.data.code, refusal.data.message);
    throw new ApiError(res.status, 'unexpected_response', 'Something went wrong on our side. Please try again.');
  }
  return res;
}

/** Calls the API (see apiResponse) and answers the JSON body (nothing for a 204). */
export async function api<T>(path: string, init: ApiInit = {}): Promise<T> {
  const res = await apiResponse(path, init);
  if (res.status === 204) return undefined as T;
  return (await res.json().catch(() => undefined)) as T;
}
