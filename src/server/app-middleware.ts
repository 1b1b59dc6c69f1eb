import type { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { logger } from 'hono/logger';
import { requestId } from 'hono/request-id';
import { secureHeaders } from 'hono/secure-headers';
import { DISPUTE_PHOTOS_MAX } from '../shared/disputes';
import { PHOTO_MAX_BYTES } from '../shared/lifecycle';
import { ID_PHOTO_KINDS, ID_PHOTO_MAX_BYTES } from '../shared/verification';
import type { AppServices } from './app-services';
import { PHOTO_UPLOAD_PATH } from './bookings/routes';
import { DomainError } from './core/domain-error';
import { DISPUTE_UPLOAD_PATH } from './disputes';
import { isBadDataError, sqlState } from './db/errors';
import { ID_CHECK_UPLOAD_PATH } from './id-checks';
import type { Env } from './env';
import { EVENTS_PATH } from './events/routes';
import { limitBody } from './http/body-limit';
import { compressResponses } from './http/compress';
import { originCheck } from './http/csrf';
import { sendError } from './http/error-status';
import { sessionCookie, sessionMiddleware } from './http/session';
import type { AppEnv } from './http/types';
import { idempotency } from './idempotency';
import { TOKEN_PATHS } from './notifications';
import { STRIPE_WEBHOOK_PATH } from './payments';

/**
 * The Content-Security-Policy of every answer: the app's own scripts, styles, images and API only (and the built
 * pages' inline scripts, by hash); with Stripe (see below) also Stripe.js and what it frames and calls.
 */
const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  // Radix positions popovers with inline styles.
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  fontSrc: ["'self'"],
  objectSrc: ["'none'"],
  // No page uses <base>; 'none' stops injected markup from re-pointing every relative URL.
  baseUri: ["'none'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

/**
 * PAYMENTS_PROVIDER=stripe: the pay dialog loads Stripe.js from js.stripe.com (never bundled: Stripe requires it
 * from its own host), which frames its card element (js.stripe.com) and 3-D Secure pages (hooks.stripe.com) and
 * calls api.stripe.com to make the payment method. Only then: with the test provider nothing leaves the app.
 */
function contentSecurityPolicy(env: Env, inlineScripts: string[]) {
  const scriptSrc = [...CONTENT_SECURITY_POLICY.scriptSrc, ...inlineScripts];
  if (env.PAYMENTS_PROVIDER !== 'stripe') return { ...CONTENT_SECURITY_POLICY, scriptSrc };
  return {
    ...CONTENT_SECURITY_POLICY,
    scriptSrc: [...scriptSrc, 'https://js.stripe.com'],
    frameSrc: ["'self'", 'https://js.stripe.com', 'https://hooks.stripe.com'],
    connectSrc: [...CONTENT_SECURITY_POLICY.connectSrc, 'https://api.stripe.com'],
  };
}

/**
 * Provider webhooks (only Stripe's, only when it runs): no session and no Origin (Stripe sends neither; its signature
 * over the body is the request's only authority), and no Idempotency-Key of ours (the event id is the key:
 * payments/stripe-webhooks.ts).
 */
const webhookPaths = (env: Env) =>
  env.PAYMENTS_PROVIDER === 'stripe' ? (path: string) => path === STRIPE_WEBHOOK_PATH : () => false;
/** A webhook's body limit: Stripe's events are JSON well under this, and a refused one is retried for days. */
const WEBHOOK_BODY_MAX_BYTES = 512 * 1024;

/** Over this, a JSON body is refused with 413 (after draining up to 8 MiB / 10 s of it: http/body-limit.ts). */
const BODY_MAX_BYTES = 64 * 1024;
const drain = { drainBytes: 8 * 1024 * 1024, drainMs: 10_000 };

/**
 * The middleware every request passes, in order: request id, log, security headers, compression; for /api also
 * no-store, the body limit, the Origin check (CSRF), the session, and idempotent writes.
 */
export function applyMiddleware(
  app: Hono<AppEnv>,
  env: Env,
  services: AppServices,
  /** The CSP sources of the built pages' inline scripts (http/inline-scripts.ts). */
  inlineScripts: string[] = [],
) {
  const isWebhook = webhookPaths(env);
  app.use(requestId());
  if (env.LOG_REQUESTS) app.use(logger());
  app.use(
    secureHeaders({
      contentSecurityPolicy: contentSecurityPolicy(env, inlineScripts),
      // One year, subdomains included. Browsers ignore it over plain http, so local development is unaffected.
      strictTransportSecurity: 'max-age=31536000; includeSubDomains',
      crossOriginEmbedderPolicy: false,
    }),
  );
  const compressBody = compressResponses();
  // Without Accept-Encoding there is nothing to negotiate, and compressResponses() would still rebuild the response to
  // add Vary (a full undici Response per call): such clients (API tools, bench:api) skip it.
  // The event stream is never compressed: compressResponses() reads a whole body first, and a stream has no end.
  app.use((c, next) =>
    c.req.header('accept-encoding') && !c.req.path.startsWith(EVENTS_PATH) ? compressBody(c, next) : next(),
  );

  app.use('/api/*', async (c, next) => {
    c.header('Cache-Control', 'no-store');
    await next();
  });
  const bodyLimit = limitBody({ maxBytes: BODY_MAX_BYTES, ...drain });
  // The one upload (a handoff photo on 'Complete delivery'): the photo's 10 MB plus room for the multipart framing
  // and the code. A file between 10 MB and this is still refused, by the route (400 invalid_image).
  const uploadLimit = limitBody({ maxBytes: PHOTO_MAX_BYTES + BODY_MAX_BYTES, ...drain });
  // A dispute's report or response: up to DISPUTE_PHOTOS_MAX photos of 10 MB each, plus the fields.
  const disputeLimit = limitBody({ maxBytes: DISPUTE_PHOTOS_MAX * PHOTO_MAX_BYTES + BODY_MAX_BYTES, ...drain });
  // 'Send for checking' (ID checks): two photos of 10 MB each, plus the consent. A file between 10 MB and this is
  // still refused, by the route (413 with the photo's own message).
  const idCheckLimit = limitBody({ maxBytes: ID_PHOTO_KINDS.length * ID_PHOTO_MAX_BYTES + BODY_MAX_BYTES, ...drain });
  const webhookLimit = limitBody({ maxBytes: WEBHOOK_BODY_MAX_BYTES, ...drain });
  // GET and HEAD carry no body, so they skip the body limit (which asks for the request's headers, and reads the body
  // only when no Content-Length frames it).
  app.use('/api/*', (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    if (isWebhook(c.req.path)) return webhookLimit(c, next);
    if (c.req.method === 'POST' && DISPUTE_UPLOAD_PATH.test(c.req.path)) return disputeLimit(c, next);
    if (c.req.method === 'POST' && ID_CHECK_UPLOAD_PATH.test(c.req.path)) return idCheckLimit(c, next);
    return (c.req.method === 'POST' && PHOTO_UPLOAD_PATH.test(c.req.path) ? uploadLimit : bodyLimit)(c, next);
  });
  // The unsubscribe links of e-mails are exempt: a mail program's one-click POST (RFC 8058) comes from the mail
  // provider, with no Origin or with its own, and no session. The signed token in the request is its only
  // authority, so a request from another site can do nothing there that the token's holder could not do anyway.
  const checkOrigin = originCheck(env.ALLOWED_ORIGINS);
  app.use('/api/*', (c, next) =>
    TOKEN_PATHS.includes(c.req.path) || isWebhook(c.req.path) ? next() : checkOrigin(c, next),
  );
  const session = sessionMiddleware(services.auth, sessionCookie(env.NODE_ENV), env.TRUST_PROXY_HOPS);
  app.use('/api/*', (c, next) => (isWebhook(c.req.path) ? next() : session(c, next)));
  // A repeated write (the same Idempotency-Key from the same person) gets the first one's answer, not a second run;
  // a sensitive route's repeat passes its identity check first.
  const idempotent = idempotency(services.idempotencyKeys, { recheck: services.recheck });
  app.use('/api/*', (c, next) => (isWebhook(c.req.path) ? next() : idempotent(c, next)));
}

/** Every error body is the shared envelope (src/shared/errors.ts), with the status ERROR_HTTP gives its code. */
export function handleErrors(app: Hono<AppEnv>) {
  app.onError((err, c) => {
    if (err instanceof DomainError) return sendError(c, err.code, err.message, err.details);
    if (err instanceof HTTPException && err.status < 500) {
      // Hono's own refusals of a request body, before any schema ran.
      if (err.status === 415)
        return sendError(
          c,
          'unsupported_media_type',
          PHOTO_UPLOAD_PATH.test(c.req.path) || ID_CHECK_UPLOAD_PATH.test(c.req.path)
            ? 'Send the form as multipart/form-data.'
            : 'Send the request body as JSON.',
        );
      if (/json/i.test(err.message)) return sendError(c, 'malformed_json', 'The request body is not valid JSON.');
      return sendError(c, 'validation_error', 'Please check your input');
    }
    if (isBadDataError(err)) {
      // A value the schemas let through but the database refused as data: still the caller's input.
      console.warn(`[${c.get('requestId')}] ${c.req.method} ${c.req.path}: database refused input (${sqlState(err)})`);
      return sendError(c, 'validation_error', 'Please check your input');
    }
    console.error(`[${c.get('requestId')}] ${c.req.method} ${c.req.path} failed:`, err);
    return sendError(c, 'internal_error', 'Something went wrong on our side. Please try again.');
  });
  app.notFound((c) => sendError(c, 'not_found', 'There is nothing at this address.'));
}
