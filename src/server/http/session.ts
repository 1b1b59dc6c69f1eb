import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { SIGNED_IN_AS_HEADER, SIGNED_OUT } from '../../shared/auth';
import type { AuthContext } from '../core/auth-context';
import { notFound, unauthenticated } from '../core/domain-error';
import type { AppEnv, SessionCookie } from './types';

/** What the session middleware needs from the auth service (app.ts passes it in; http/ never imports a feature). */
export interface SessionResolver {
  resolveSession(token: string): Promise<AuthContext | null>;
  /** The new last-seen time, or null when no refresh was due. */
  touchSession(ctx: AuthContext): Promise<Date | null>;
  policy: { idleMs: number };
}

/**
 * In production the cookie carries the `__Host-` prefix: browsers then accept it only with Secure, Path=/ and no
 * Domain, so neither plain http nor a sibling subdomain can plant or overwrite it. Development over plain http on
 * localhost keeps a bare name (Secure only when the request came over https).
 */
export function sessionCookie(nodeEnv: string): SessionCookie {
  const production = nodeEnv === 'production';
  return { name: production ? '__Host-rr_session' : 'rr_session', production };
}

/** Set by sessionMiddleware, which runs before every /api route. */
function cookieOf(c: Context<AppEnv>): SessionCookie {
  return c.get('sessionCookie') ?? sessionCookie('development');
}

/** The token from the session cookie, or from `Authorization: Bearer` for non-browser clients. */
export function readToken(c: Context<AppEnv>): string | undefined {
  const bearer = c.req.header('authorization')?.match(/^Bearer\s+([A-Za-z0-9_-]{20,100})$/)?.[1];
  const cookie = getCookie(c, cookieOf(c).name);
  const token = bearer ?? cookie;
  return token && /^[A-Za-z0-9_-]{20,100}$/.test(token) ? token : undefined;
}

/** Whether the request came over https (directly, or as a trusted proxy says): cookies are then Secure. */
export function isHttps(c: Context, trustProxyHops: number): boolean {
  if (new URL(c.req.url).protocol === 'https:') return true;
  return trustProxyHops > 0 && c.req.header('x-forwarded-proto')?.split(',')[0]?.trim() === 'https';
}

export function writeSessionCookie(
  c: Context<AppEnv>,
  token: string,
  lastSeenAt: Date,
  expiresAt: Date,
  idleMs: number,
  trustProxyHops: number,
): void {
  const { name, production } = cookieOf(c);
  const until = Math.min(lastSeenAt.getTime() + idleMs, expiresAt.getTime());
  setCookie(c, name, token, {
    httpOnly: true,
    sameSite: 'Lax',
    secure: production || isHttps(c, trustProxyHops),
    path: '/',
    maxAge: Math.max(0, Math.floor((until - Date.now()) / 1000)),
  });
}

export function clearSessionCookie(c: Context<AppEnv>): void {
  const { name, production } = cookieOf(c);
  // A __Host- cookie is only replaced by a Set-Cookie with the same prefix rules, Secure included.
  deleteCookie(c, name, { path: '/', secure: production });
}

/**
 * Resolves the session on every API request and slides its idle window while it is in use. A session still waiting
 * for its second factor is signed out for every purpose (`auth` is null); only the routes that read `pendingAuth`
 * (the code step, GET /auth/session) see it, and sign-out ends it by its token.
 */
export function sessionMiddleware(
  auth: SessionResolver,
  cookie: SessionCookie,
  trustProxyHops: number,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set('sessionCookie', cookie);
    const token = readToken(c);
    const ctx = token ? await auth.resolveSession(token) : null;
    c.set('auth', ctx && !ctx.session.pending ? ctx : null);
    c.set('pendingAuth', ctx?.session.pending ? ctx : null);
    c.header(SIGNED_IN_AS_HEADER, ctx && !ctx.session.pending ? ctx.user.id : SIGNED_OUT);
    if (token && !ctx && getCookie(c, cookie.name)) clearSessionCookie(c);
    // A pending session's window does not slide: waiting for a code (or asking GET /auth/session) is no use of it,
    // and the code step replaces its cookie anyway.
    if (token && ctx && !ctx.session.pending) {
      const touched = await auth.touchSession(ctx);
      if (touched) {
        ctx.session.lastSeenAt = touched;
        if (getCookie(c, cookie.name) === token)
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

/**
 * Everyone but an admin, signed out included, gets the same 404 as an unknown address on every admin path, before
 * any validation: the routes do not exist for them (docs/decisions/017-blocking-and-moderation.md). For the same
 * reason admin routes are left out of the OpenAPI document.
 */
export const requireAdmin: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!c.get('auth')?.user.is_admin) throw notFound('There is nothing at this address.');
  await next();
};

export function currentAuth(c: Context<AppEnv>): AuthContext {
  const auth = c.get('auth');
  if (!auth) throw unauthenticated();
  return auth;
}

/** For the code step of sign-in: 401 unless the request's session is waiting for its second factor. */
export const requirePendingAuth: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!c.get('pendingAuth')) throw unauthenticated();
  await next();
};
