import { errorBodySchema } from '../../shared/errors';

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

type ApiInit = { method?: string; body?: unknown; signal?: AbortSignal };

/**
 * Calls the API and answers the successful Response (a download reads its headers and body itself). A `body` is
 * sent as JSON, except FormData (a file upload), which goes as multipart/form-data: the browser then writes the
 * Content-Type with its boundary itself. A failure throws ApiError.
 */
export async function apiResponse(path: string, init: ApiInit = {}): Promise<Response> {
  const { body } = init;
  const multipart = body instanceof FormData;
  let res: Response;
  try {
    res = await fetch(`/api${path}`, {
      method: init.method ?? 'GET',
      headers: body === undefined || multipart ? undefined : { 'Content-Type': 'application/json' },
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
