import type { MiddlewareHandler } from 'hono';
import { DomainError } from '../core/domain-error';

export interface BodyLimitOptions {
  /** Largest body a route may receive, in bytes. */
  maxBytes: number;
  /** How much of an over-limit body is still read (and thrown away) before answering, in bytes. */
  drainBytes: number;
  /** How long that reading may take, in milliseconds. */
  drainMs: number;
}

/**
 * Refuses a request body over `maxBytes` with 413 `payload_too_large` and `Connection: close`, in a way a client
 * over a real socket can read.
 *
 * Why not hono's bodyLimit alone: it answers as soon as it sees the size (from Content-Length, before reading a
 * byte) and leaves the rest of the body unread. With keep-alive announced, Node then closes the socket later and a
 * client that reuses it fails ("socket hang up"). With `Connection: close`, Node ends the response and destroys
 * the socket at once; the kernel answers the body bytes still arriving with a TCP reset, and the client can get
 * EPIPE/ECONNRESET instead of (or before reading) the 413. So the rest of the body is read and discarded first,
 * up to `drainBytes` and `drainMs`, and only then the 413 goes out with `Connection: close`: the socket then
 * closes with nothing unread, the client reads the whole answer, and the server takes the next connection.
 * Past those bounds the client is not worth more of the server's time: the 413 goes out and the socket may reset.
 */
export function limitBody({ maxBytes, drainBytes, drainMs }: BodyLimitOptions): MiddlewareHandler {
  return async (c, next) => {
    const declared = declaredLength(c.req.raw.headers);
    // HTTP framing guarantees no more bytes than a Content-Length declares: nothing to count. Asked before the body is
    // touched: reading `c.req.raw.body` makes @hono/node-server build a whole web Request (a stream, an
    // AbortController) where the route's c.req.json() would otherwise read the bytes directly.
    if (declared !== undefined && declared <= maxBytes) return next();
    const body = c.req.raw.body;
    if (!body) return next();

    const reader = body.getReader();
    if (declared === undefined) {
      const chunks: Uint8Array[] = [];
      let size = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) {
          // The body was consumed to count it: hand the routes the same bytes.
          c.req.raw = new Request(c.req.raw, { body: Buffer.concat(chunks, size) });
          return next();
        }
        size += value.length;
        if (size > maxBytes) break;
        chunks.push(value);
      }
    }
    await discard(reader, drainBytes, drainMs);
    // 413 with Connection: close (ERROR_HTTP in error-status.ts).
    throw new DomainError('payload_too_large', 'The request is too large.');
  };
}

/** Content-Length when it frames the body (a Transfer-Encoding overrides it), else undefined. */
function declaredLength(headers: Headers): number | undefined {
  const value = headers.get('content-length');
  if (value === null || headers.has('transfer-encoding') || !/^\d+$/.test(value)) return undefined;
  return Number(value);
}

/** Reads and drops what is left of the body, within the bounds; a client that goes away just ends it. */
async function discard(reader: ReadableStreamDefaultReader<Uint8Array>, maxBytes: number, ms: number) {
  let left = maxBytes;
  let timer: NodeJS.Timeout | undefined;
  const timeUp = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  try {
    for (;;) {
      const result = await Promise.race([reader.read(), timeUp.then(() => null)]);
      if (!result || result.done) return;
      left -= result.value.length;
      if (left < 0) return;
    }
  } catch {
    // The client closed or reset the connection: there is nobody left to answer, and nothing left to read.
  } finally {
    clearTimeout(timer);
    reader.releaseLock();
  }
}
