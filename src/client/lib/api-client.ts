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

export async function api<T>(
  path: string,
  init: { method?: string; body?: unknown; signal?: AbortSignal } = {},
): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`/api${path}`, {
      method: init.method ?? 'GET',
      headers: init.body === undefined ? undefined : { 'Content-Type': 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      credentials: 'same-origin',
      signal: init.signal,
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError(0, 'network_error', NETWORK_ERROR_MESSAGE);
  }
  if (res.status === 204) return undefined as T;
  const body: unknown = await res.json().catch(() => undefined);
  if (!res.ok) {
    const refusal = errorBodySchema.safeParse(body);
    if (refusal.success) throw new ApiError(res.status, refusal.data.code, refusal.data.message);
    throw new ApiError(res.status, 'unexpected_response', 'Something went wrong on our side. Please try again.');
  }
  return body as T;
}
