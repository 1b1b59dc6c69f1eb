import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

/** The socket's peer address; an `app.request()` without Node bindings has none. */
function socketAddress(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
}

/**
 * The caller's address. X-Forwarded-For is believed only for the configured number of trusted proxy hops, counted
 * from the right, so a client cannot reset its rate limits by forging the header.
 */
export function clientIp(c: Context, trustProxyHops: number): string {
  const socketIp = socketAddress(c) ?? 'unknown';
  if (trustProxyHops <= 0) return socketIp;
  const hops = (c.req.header('x-forwarded-for') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return hops[hops.length - trustProxyHops] ?? hops[0] ?? socketIp;
}
