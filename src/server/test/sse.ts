import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll } from 'vitest';
import type { Database } from '../db/client';
import { EVENTS_CHANNEL } from '../events';
import { until } from './wait';

/** One parsed server-sent event (https://html.spec.whatwg.org/multipage/server-sent-events.html). */
export interface SseEvent {
  event: string;
  data: string;
  id?: string;
  retry?: number;
}

type Fetchable = { fetch: (request: Request, ...rest: never[]) => Response | Promise<Response> };

/** Serves `app` over real HTTP on a free port (SSE needs a real connection); `close` ends every connection. */
export async function serveApp(app: Fetchable): Promise<{ url: string; close(): Promise<void> }> {
  let server!: ReturnType<typeof serve>;
  const port = await new Promise<number>((resolve) => {
    server = serve({ fetch: app.fetch as never, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
      resolve(info.port),
    );
  });
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        const s = server as unknown as { closeAllConnections?: () => void; close(cb: () => void): void };
        s.close(() => resolve());
        s.closeAllConnections?.();
      }),
  };
}

export interface SseOptions {
  /** Session token, sent as the browser's cookie. */
  cookie?: string;
  lastEventId?: string;
  /** Sent as ?last_event_id= instead of the header. */
  lastEventIdQuery?: string;
  headers?: Record<string, string>;
}

/**
 * A small EventSource over fetch, for tests: it records every event and comment, and lets a test wait for the
 * next ones. It never reconnects by itself (a test opens a new one with `lastEventId`).
 */
export class SseClient {
  readonly events: SseEvent[] = [];
  readonly comments: string[] = [];
  /** Resolves when the server ends the stream (or `close` aborts it). */
  readonly ended: Promise<void>;
  private read = 0;
  private wake: (() => void) | null = null;
  private done = false;

  private constructor(
    readonly status: number,
    readonly headers: Headers,
    private readonly abort: AbortController,
    body: ReadableStream<Uint8Array> | null,
    readonly text?: string,
  ) {
    this.ended = body ? this.consume(body) : Promise.resolve();
  }

  static async open(baseUrl: string, opts: SseOptions = {}): Promise<SseClient> {
    const abort = new AbortController();
    const headers: Record<string, string> = { accept: 'text/event-stream', ...opts.headers };
    if (opts.cookie) headers.cookie = `rr_session=${opts.cookie}`;
    if (opts.lastEventId !== undefined) headers['last-event-id'] = opts.lastEventId;
    const query =
      opts.lastEventIdQuery !== undefined ? `?last_event_id=${encodeURIComponent(opts.lastEventIdQuery)}` : '';
    const res = await fetch(`${baseUrl}/api/events${query}`, { headers, signal: abort.signal });
    if (!res.headers.get('content-type')?.startsWith('text/event-stream'))
      return new SseClient(res.status, res.headers, abort, null, await res.text());
    return new SseClient(res.status, res.headers, abort, res.body, undefined);
  }

  get closed(): boolean {
    return this.done;
  }

  /** Waits until `count` events (beyond those already taken) have arrived and takes them. */
  async take(count: number, timeoutMs = 5_000): Promise<SseEvent[]> {
    await this.until(() => this.events.length - this.read >= count, `${count} event(s)`, timeoutMs);
    const taken = this.events.slice(this.read, this.read + count);
    this.read += count;
    return taken;
  }

  /** Takes events until one satisfies `match`; returns every event taken, the match last. */
  async takeUntil(match: (e: SseEvent) => boolean, timeoutMs = 5_000): Promise<SseEvent[]> {
    const taken: SseEvent[] = [];
    for (;;) {
      const [e] = await this.take(1, timeoutMs);
      taken.push(e!);
      if (match(e!)) return taken;
    }
  }

  /** Events that have arrived but were not taken yet. */
  pending(): SseEvent[] {
    return this.events.slice(this.read);
  }

  /** Waits for `ms` and asserts nothing else arrived meanwhile by returning what did. */
  async quiet(ms: number): Promise<SseEvent[]> {
    await new Promise((r) => setTimeout(r, ms));
    return this.pending();
  }

  async until(ok: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!ok()) {
      if (this.done && !ok()) throw new Error(`stream ended while waiting for ${what}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}; got ${JSON.stringify(this.pending())}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 50));
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  close(): void {
    this.abort.abort();
  }

  private async consume(body: ReadableStream<Uint8Array>): Promise<void> {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          this.dispatch(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
        }
      }
    } catch {
      /* aborted by close(), or the connection dropped */
    } finally {
      this.done = true;
      this.wake?.();
    }
  }

  private dispatch(block: string): void {
    const event: SseEvent = { event: 'message', data: '' };
    const data: string[] = [];
    let hasField = false;
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) {
        this.comments.push(line.slice(1).trim());
        continue;
      }
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      hasField = true;
      if (field === 'event') event.event = value;
      else if (field === 'data') data.push(value);
      else if (field === 'id') event.id = value;
      else if (field === 'retry') event.retry = Number(value);
    }
    if (!hasField) return;
    event.data = data.join('\n');
    this.events.push(event);
    this.wake?.();
  }
}

/** The JSON data of an event. */
export const dataOf = <T = Record<string, unknown>>(e: SseEvent): T => JSON.parse(e.data) as T;

/**
 * For a test file: serves the app (`app()` is read once the suite's app exists) over real HTTP for the whole file
 * and closes every stream it opened, then the server. `connect` opens a stream as `token`'s browser would.
 */
export function servedEvents(app: () => Fetchable) {
  let server: Awaited<ReturnType<typeof serveApp>> | undefined;
  const open: SseClient[] = [];
  beforeAll(async () => {
    server = await serveApp(app());
  });
  afterAll(async () => {
    for (const c of open) c.close();
    await server?.close();
  });
  const url = () => {
    if (!server) throw new Error('servedEvents: the server is not up yet (use it inside a test)');
    return server.url;
  };
  return {
    url,
    async connect(token?: string, opts: Omit<SseOptions, 'cookie'> = {}) {
      const client = await SseClient.open(url(), { cookie: token, ...opts });
      open.push(client);
      return client;
    },
  };
}

/** This database's LISTEN connection for live events is up. */
export const listening = (d: Database) => d.notifications.isListening(EVENTS_CHANNEL);

/**
 * For a two-instance test file (setupTwoInstances' `ctx`): serves both apps over real HTTP once both LISTEN
 * connections are up, and closes every stream it opened (or was handed with `track`), then the servers.
 * `connect(instance, token)` opens a stream on that instance as `token`'s browser would.
 */
export function servedInstances(ctx: { apps: [Fetchable, Fetchable]; databases: [Database, Database] }) {
  const servers: Awaited<ReturnType<typeof serveApp>>[] = [];
  const open: SseClient[] = [];
  beforeAll(async () => {
    servers.push(await serveApp(ctx.apps[0]), await serveApp(ctx.apps[1]));
    await until('both LISTEN connections', () => ctx.databases.every(listening));
  });
  afterAll(async () => {
    for (const c of open) c.close();
    await Promise.all(servers.map((s) => s.close()));
  });
  const track = (client: SseClient) => (open.push(client), client);
  return {
    track,
    connect: async (instance: 0 | 1, token: string) =>
      track(await SseClient.open(servers[instance]!.url, { cookie: token })),
  };
}
