import type { MiddlewareHandler } from 'hono';
import { DomainError } from '../core/domain-error';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses unsafe requests that a browser sends from another site. Browsers always send Origin on cross-origin
 * unsafe requests (and Sec-Fetch-Site), so a request carrying neither comes from a non-browser client, which cannot
 * ride on a victim's cookie.
 */
export function originCheck(allowedOrigins: readonly string[]): MiddlewareHandler {
  const allowed = new Set(allowedOrigins);
  return async (c, next) => {
    if (SAFE.has(c.req.method)) return next();
    const origin = c.req.header('origin');
    const ownOrigin = new URL(c.req.url).origin;
    const host = c.req.header('host');
    const fromSameHost = (o: string) => {
      try {
        return host !== undefined && new URL(o).host === host;
      } catch {
        return false;
      }
    };
    if (origin !== undefined) {
      if (origin === ownOrigin || allowed.has(origin) || fromSameHost(origin)) return next();
    } else if (c.req.header('sec-fetch-site') !== 'cross-site') {
      return next();
    }
    throw new DomainError('forbidden_origin', 'This request came from another site and was refused.');
  };
}
