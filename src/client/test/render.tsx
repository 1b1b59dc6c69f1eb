import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type * as React from 'react';
import { MemoryRouter } from '@/lib/router';
import { toast } from 'sonner';
import { vi } from 'vitest';
import { createQueryClient } from '@/app/providers';
import { Toaster } from '@/components/ui/toaster';

/**
 * Renders with the app's real QueryClient setup (incl. the error-toast cache), a router (at `route`, default '/')
 * and the toaster.
 */
export function renderWithProviders(ui: React.ReactElement, { route = '/' }: { route?: string } = {}) {
  // sonner keeps toasts in a module-level store that a new <Toaster> replays; start each test without them.
  toast.dismiss();
  const client = createQueryClient();
  const defaults = client.getDefaultOptions();
  client.setDefaultOptions({ ...defaults, queries: { ...defaults.queries, retry: false } });
  return {
    client,
    ...render(
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={[route]}>{ui}</MemoryRouter>
        <Toaster />
      </QueryClientProvider>,
    ),
  };
}

/** A recorded request body: JSON parsed, FormData as a plain object of its entries (files stay File). */
function bodyOf(body: RequestInit['body'] | undefined): unknown {
  if (!body) return undefined;
  if (body instanceof FormData) return Object.fromEntries(body.entries());
  return JSON.parse(String(body));
}

interface StubCall {
  method: string;
  path: string;
  body: unknown;
  /** A multipart body as sent (a field repeated, like `photos`, keeps every value: `form.getAll('photos')`). */
  form?: FormData;
  headers: Headers;
  /** The request's abort signal: a test can see a stale request cancelled. */
  signal?: AbortSignal;
}

/** `headers` are added to the answer's (a download's Content-Disposition). */
type StubAnswer = { status?: number; body?: unknown; headers?: Record<string, string> };

/**
 * Stubs `fetch` (the network boundary) with a handler per "METHOD /path" (query string stripped). Unknown routes
 * answer 404 so a test never silently hits the real network. A handler may answer later (a promise: the request
 * is in flight until then) or throw (the network failed). Returns the recorded calls.
 */
export function stubApi(routes: Record<string, (call: StubCall) => StubAnswer | Promise<StubAnswer>>) {
  const calls: StubCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    const path = url.pathname.replace(/^\/api/, '');
    const call = {
      method,
      path: `${path}${url.search}`,
      body: bodyOf(init?.body),
      form: init?.body instanceof FormData ? init.body : undefined,
      headers: new Headers(init?.headers),
      signal: init?.signal ?? undefined,
    };
    calls.push(call);
    const handler = routes[`${method} ${path}`];
    const {
      status = 200,
      body,
      headers,
    }: StubAnswer = handler ? await handler(call) : { status: 404, body: { code: 'not_found', message: 'Not found' } };
    if (status === 204) return new Response(null, { status, headers });
    return new Response(JSON.stringify(body), {
      status,
      headers: { 'Content-Type': 'application/json', ...headers },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

export const emptyPage = { items: [], next_cursor: null };
