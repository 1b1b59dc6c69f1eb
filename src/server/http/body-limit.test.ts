import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../core/domain-error';
import { limitBody } from './body-limit';
import { sendError } from './error-status';

/** The middleware alone, on a tiny app: the bounds on reading an over-limit body, which a socket test can't time. */
function appWith(options: { maxBytes: number; drainBytes: number; drainMs: number }) {
  const seen: string[] = [];
  const app = new Hono();
  app.use(limitBody(options));
  app.post('/', async (c) => {
    seen.push(await c.req.text());
    return c.text('stored', 201);
  });
  app.onError((err, c) => {
    if (!(err instanceof DomainError)) throw err;
    return sendError(c, err.code, err.message, err.details);
  });
  return { app, seen };
}

/** A body that sends `chunks` of `size` bytes, then either ends or stalls forever. */
function body(chunks: number, size: number, then: 'end' | 'stall' = 'end') {
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent < chunks) {
        sent += 1;
        controller.enqueue(new Uint8Array(size).fill(120));
      } else if (then === 'end') controller.close();
      else return new Promise<void>(() => {});
    },
  });
  return { stream, sent: () => sent };
}

const post = (app: Hono, stream: ReadableStream<Uint8Array>, headers: Record<string, string> = {}) =>
  app.request('http://localhost/', { method: 'POST', body: stream, headers, duplex: 'half' } as RequestInit);

describe('limitBody', () => {
  it('hands a streamed body within the limit to the route unchanged', async () => {
    const { app, seen } = appWith({ maxBytes: 100, drainBytes: 1000, drainMs: 1000 });
    const res = await post(app, body(4, 25).stream);
    expect(res.status).toBe(201);
    expect(seen).toEqual(['x'.repeat(100)]);
  });

  it('reads an over-limit body to its end (within the bounds) before answering 413 with Connection: close', async () => {
    const { app, seen } = appWith({ maxBytes: 100, drainBytes: 1000, drainMs: 1000 });
    const b = body(20, 25);
    const res = await post(app, b.stream);
    expect(res.status).toBe(413);
    expect(res.headers.get('connection')).toBe('close');
    expect(await res.json()).toEqual({ code: 'payload_too_large', message: 'The request is too large.' });
    expect(b.sent()).toBe(20);
    expect(seen).toEqual([]);
  });

  it('refuses a declared Content-Length over the limit without running the route', async () => {
    const { app, seen } = appWith({ maxBytes: 100, drainBytes: 1000, drainMs: 1000 });
    const res = await post(app, body(8, 25).stream, { 'content-length': '200' });
    expect(res.status).toBe(413);
    expect(seen).toEqual([]);
  });

  it('stops reading after drainBytes: an endless body still gets its 413', async () => {
    const { app } = appWith({ maxBytes: 100, drainBytes: 1000, drainMs: 60_000 });
    const b = body(1_000_000, 100);
    const res = await post(app, b.stream);
    expect(res.status).toBe(413);
    expect(b.sent()).toBeLessThan(20);
  });

  it('stops waiting after drainMs: a client that stalls mid-body still gets its 413', async () => {
    const { app } = appWith({ maxBytes: 100, drainBytes: 1000, drainMs: 200 });
    const started = Date.now();
    const res = await post(app, body(2, 100, 'stall').stream);
    expect(res.status).toBe(413);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
