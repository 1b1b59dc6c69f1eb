import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { AuthContext, AuthService } from '../auth/service';
import { unauthenticated } from './app-error';
import type { AppEnv } from './types';

export const SESSION_COOKIE = 'rr_session';

/** The token from the session cookie, or from `Authorization: Bearer` for non-browser clients. */
export function readToken(c: Context): string | undefined {
  const bearer = c.req.header('authorization')?.match(/^Bearer\s+([A-Za-z0-9_-]{20,100})$/)?.[1];
  const cookie = getCookie(c, SESSION_COOKIE);
  const token = bearer ?? cookie;
  return token && /^[A-Za-z0-9_-]{20,100}$/.test(token) ? token : undefined;
}

function isHttps(c: Context, trustProxyHops: number): boolean {
  if (new URL(c.req.url).protocol === 'https:') return true;
  return trustProxyHops > 0 && c.req.header('x-forwarded-proto')?.split(',')[0]?.trim() === 'https';
}

export function writeSessionCookie(
  c: Context,
  token: string,
  lastSeenAt: Date,
  expiresAt: Date,
  idleMs: number,
  trustProxyHops: number,
): void {
  const until = Math.min(lastSeenAt.getTime() + idleMs, expiresAt.getTime());
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'Lax',
    secure: isHttps(c, trustProxyHops),
    path: '/',
    maxAge: Math.max(0, Math.floor((until - Date.now()) / 1000)),
  });
}

export function clearSessionCookie(c: Context): void {
  deleteCookie(c, SESSION_COOKIE, { path: '/' });
}

/** Resolves the session on every API request and slides its idle window while it is in use. */
export function sessionMiddleware(auth: AuthService, trustProxyHops: number): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const token = readToken(c);
    const ctx = token ? await auth.resolveSession(token) : null;
    c.set('auth', ctx);
    if (token && !ctx && getCookie(c, SESSION_COOKIE)) clearSessionCookie(c);
    if (token && ctx) {
      const touched = await auth.touchSession(ctx);
      if (touched) {
        ctx.session.lastSeenAt = touched;
        if (getCookie(c, SESSION_COOKIE) === token)
          writeSessionCookie(c, token, touched, ctx.session.expiresAt, auth.policy.idleMs, trustProxyHops);
      }
    }
    await next();
  };
}

export const requireAuth: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!c.get('auth')) throw unauthenticated();
  await next();
};

export function currentAuth(c: Context<AppEnv>): AuthContext {
  const auth = c.get('auth');
  if (!auth) throw unauthenticated();
  return auth;
}
