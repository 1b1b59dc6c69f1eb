import type { Context } from 'hono';

interface NodeBindings {
  incoming?: { socket?: { remoteAddress?: string } };
}

/**
 * The caller's address. X-Forwarded-For is believed only for the configured number of trusted proxy hops, counted
 * from the right, so a client cannot reset its rate limits by forging the header.
 */
export function clientIp(c: Context, trustProxyHops: number): string {
  const socketIp = (c.env as NodeBindings | undefined)?.incoming?.socket?.remoteAddress ?? 'unknown';
  if (trustProxyHops <= 0) return socketIp;
  const hops = (c.req.header('x-forwarded-for') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return hops[hops.length - trustProxyHops] ?? hops[0] ?? socketIp;
}
