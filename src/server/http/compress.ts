import type { MiddlewareHandler } from 'hono';
import { parseAccept } from 'hono/utils/accept';
import { COMPRESSIBLE_CONTENT_TYPE_REGEX } from 'hono/utils/compress';
import { promisify } from 'node:util';
import { deflate, deflateSync, gzip, gzipSync } from 'node:zlib';

const ENCODINGS = ['gzip', 'deflate'] as const;
type Encoding = (typeof ENCODINGS)[number];
const NO_TRANSFORM = /(?:^|,)\s*?no-transform\s*?(?:,|$)/i;
const VARY_ACCEPT_ENCODING = /(?:^|,)\s*accept-encoding\s*(?:,|$)/i;
/** Bodies up to this size are compressed on the spot (tens of µs); larger ones on libuv's threads. */
const SYNC_MAX_BYTES = 64 * 1024;
const packSync: Record<Encoding, (b: Uint8Array) => Buffer> = { gzip: gzipSync, deflate: deflateSync };
const packAsync: Record<Encoding, (b: Uint8Array) => Promise<Buffer>> = {
  gzip: promisify(gzip),
  deflate: promisify(deflate),
};

/** Bodies smaller than this are sent as they are. */
export const COMPRESS_THRESHOLD = 1024;

type Accepted = ReturnType<typeof parseAccept>;

/** An encoding's q in a parsed Accept-Encoding: its own, else the wildcard's, else 0. */
const qualityOf = (accepts: Accepted, encoding: string) =>
  accepts.find((a) => a.type.toLowerCase() === encoding)?.q ?? accepts.find((a) => a.type === '*')?.q ?? 0;

/** Whether an Accept-Encoding header takes `encoding` (named or by `*`, with a q above 0). */
export function acceptsEncoding(header: string | undefined, encoding: string): boolean {
  return header !== undefined && qualityOf(parseAccept(header), encoding) > 0;
}

/** Hono's negotiation: an explicit q of 1 wins, else the highest q above 0 (gzip first on a tie). */
export function selectEncoding(header: string | undefined): Encoding | undefined {
  if (header === undefined) return undefined;
  const accepts = parseAccept(header);
  let best: { encoding: Encoding; q: number } | undefined;
  for (const encoding of ENCODINGS) {
    const q = qualityOf(accepts, encoding);
    if (q === 1) return encoding;
    if (q > 0 && (!best || q > best.q)) best = { encoding, q };
  }
  return best?.encoding;
}

/**
 * Response compression as hono/compress does it (same negotiation, content types, threshold, Vary, no-transform,
 * weak ETag), with node:zlib instead of the web CompressionStream: a 9 KB browse page took 664 µs of CPU through
 * CompressionStream and takes 74 µs through gzipSync for the same bytes (level 6). Every browser asks for it, so it
 * was most of an API request's cost (docs/decisions/024-tail-latency.md). Unlike hono/compress, a body under the
 * threshold is left as it is even when it came without a Content-Length.
 */
export function compressResponses({ threshold = COMPRESS_THRESHOLD }: { threshold?: number } = {}): MiddlewareHandler {
  return async function compressResponses(c, next) {
    await next();
    const res = c.res;
    const length = res.headers.get('Content-Length');
    const type = res.headers.get('Content-Type');
    if (
      res.status === 206 ||
      !res.body ||
      c.req.method === 'HEAD' ||
      res.headers.has('Content-Encoding') ||
      res.headers.has('Transfer-Encoding') ||
      (length && Number(length) < threshold) ||
      !type ||
      !COMPRESSIBLE_CONTENT_TYPE_REGEX.test(type) ||
      NO_TRANSFORM.test(res.headers.get('Cache-Control') ?? '')
    )
      return;
    const vary = res.headers.get('Vary');
    if (vary !== '*' && !(vary && VARY_ACCEPT_ENCODING.test(vary)))
      res.headers.set('Vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
    const encoding = selectEncoding(c.req.header('Accept-Encoding'));
    if (!encoding) return;
    const body = new Uint8Array(await res.arrayBuffer());
    if (body.byteLength < threshold) {
      c.res = new Response(body, res);
      return;
    }
    const packed = body.byteLength <= SYNC_MAX_BYTES ? packSync[encoding](body) : await packAsync[encoding](body);
    c.res = new Response(new Uint8Array(packed), res);
    c.res.headers.delete('Content-Length');
    c.res.headers.set('Content-Encoding', encoding);
    const etag = c.res.headers.get('ETag');
    if (etag && !etag.startsWith('W/')) c.res.headers.set('ETag', `W/${etag}`);
  };
}
