import { logger } from 'hono/logger';
import { HTTPException } from 'hono/http-exception';
import { requestId } from 'hono/request-id';
import { secureHeaders } from 'hono/secure-headers';
import { Hono } from 'hono';
import {
  ACCOUNT_DELETED_JOB,
  accountDeletedMailHandler,
  accountRoutes,
  callerOf,
  confirmEmailRoutes,
  createAccountDeletion,
  createAccountService,
  createDataExport,
  createEmailChangeService,
  createIdentityChecks,
  createTwoFactorService,
  dataRoutes,
  EMAIL_CHANGE_JOB,
  emailChangeMailHandler,
  emailChangeRoutes,
  twoFactorRoutes,
} from './account';
import { alertMatching, createSavedSearchService, routeAlertRoutes, savedSearchRoutes } from './alerts';
import { alongRouteRoutes, createAlongRouteService, createAskService } from './along-route';
import { createSecondFactor } from './auth/second-factor';
import { createTwoFactorSettings } from './auth/two-factor-settings';
import { createRecoveryService, PASSWORD_RESET_JOB, passwordResetHandler } from './auth/recovery';
import { recoveryRoutes } from './auth/recovery-routes';
import { authRoutes } from './auth/routes';
import { createAuthService, SESSION_REVOKED } from './auth/service';
import { hashToken } from './auth/tokens';
import { contactRoutes } from './contact/routes';
import { createContactService } from './contact/service';
import { createBookingReader } from './bookings/detail';
import { bookingRoutes, PHOTO_UPLOAD_PATH } from './bookings/routes';
import { createBookingService } from './bookings/service';
import { createTransitions } from './bookings/transitions';
import { dashboardRoutes } from './dashboard/routes';
import { createEventHub } from './events';
import { EVENTS_PATH, eventRoutes } from './events/routes';
import { createDashboardService } from './dashboard/service';
import type { Db } from './db/client';
import type { Notifications } from './db/notify';
import { PHOTO_MAX_BYTES } from '../shared/lifecycle';
import { fillSiteConfig, siteConfigFor } from '../shared/site-config';
import type { Env } from './env';
import { isBadDataError, sqlState } from './db/errors';
import { DomainError } from './core/domain-error';
import { periodic } from './core/periodic';
import { foldListVersions } from './db/list-cache';
import { limitBody } from './http/body-limit';
import { compressResponses } from './http/compress';
import { originCheck } from './http/csrf';
import { sessionCookie, sessionMiddleware } from './http/session';
import { createIdempotencyStore, idempotency } from './idempotency';
import { mountClient } from './http/static';
import type { AppEnv } from './http/types';
import { createRouter } from './http/validation';
import { sendError } from './http/error-status';
import { createJobWorker } from './jobs';
import { createAttemptCounter } from './limits';
import { createMailer, EMAIL_JOB, emailJobHandler } from './mail';
import { createAdminService } from './moderation/admin';
import { adminRoutes, blockRoutes, reportRoutes } from './moderation/routes';
import { createBlockService, createReportService } from './moderation/service';
import { writeThrottle } from './limits/middleware';
import { conversationRoutes, messageRoutes } from './messages/routes';
import { createMessageService } from './messages/service';
import {
  createNotificationService,
  createNotificationSweep,
  createUnsubscribeTokens,
  NOTIFICATION_EMAIL_JOB,
  notificationMailHandler,
  notificationRoutes,
  TOKEN_PATHS,
} from './notifications';
import { createPlaceService, placeRoutes } from './places';
import { requestRoutes } from './requests/routes';
import { createRequestService } from './requests/service';
import {
  bookingReviewRoutes,
  createProfileService,
  createReviewService,
  createReviewSweep,
  reviewRoutes,
  userRoutes,
} from './reviews';
import { rideRoutes } from './rides/routes';
import { createRideService } from './rides/service';

export interface AppOptions {
  db: Db;
  env: Env;
  /** Directory of the built client to serve; omitted in API tests. */
  clientDir?: string;
  /** The database's LISTEN/NOTIFY (Database.notifications); without it the session cache stays off. */
  notifications?: Notifications;
  /**
   * The time the reviews' rules and the job worker read (the 14-day period, when reviews are published); the wall clock unless a
   * test moves it.
   */
  clock?: () => Date;
}

const MINUTE = 60_000;

export function createApp({ db, env, clientDir, notifications, clock = () => new Date() }: AppOptions) {
  const auth = createAuthService(
    db,
    { memoryCost: env.ARGON2_MEMORY_KIB, timeCost: env.ARGON2_TIME_COST, parallelism: env.ARGON2_PARALLELISM },
    {
      idleMs: env.SESSION_IDLE_MINUTES * MINUTE,
      absoluteMs: env.SESSION_ABSOLUTE_DAYS * 24 * 60 * MINUTE,
      touchMs: env.SESSION_TOUCH_SECONDS * 1000,
      cacheMs: env.SESSION_CACHE_SECONDS * 1000,
    },
    notifications,
    clock,
  );

  // Live events: one hub per app, listening once for the whole process (events/hub.ts). A stream ends when its
  // session does: on a revocation from any instance, and at the latest at the next heartbeat.
  const hub = createEventHub(db, notifications, {
    heartbeatMs: env.EVENT_HEARTBEAT_SECONDS * 1000,
    retentionHours: env.EVENT_RETENTION_HOURS,
    session: {
      channel: SESSION_REVOKED,
      hash: hashToken,
      // A session waiting for its second factor signs no one in (it cannot open a stream, and loses one it had).
      userOf: async (token) => {
        const ctx = await auth.resolveSession(token);
        return ctx && !ctx.session.pending ? ctx.user.id : null;
      },
    },
  });

  const app = new Hono<AppEnv>();
  app.use(requestId());
  if (env.LOG_REQUESTS) app.use(logger());
  app.use(
    secureHeaders({
      contentSecurityPolicy: {
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
      },
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
  // Over 64 KiB: 413 with Connection: close, after reading (and dropping) up to 8 MiB / 10 s more of the body so
  // the client can read the answer; see http/body-limit.ts.
  const bodyLimit = limitBody({ maxBytes: 64 * 1024, drainBytes: 8 * 1024 * 1024, drainMs: 10_000 });
  // The one upload (a handoff photo on 'Complete delivery'): the photo's 10 MB plus room for the multipart framing
  // and the code. A file between 10 MB and this is still refused, by the route (400 invalid_image).
  const uploadLimit = limitBody({
    maxBytes: PHOTO_MAX_BYTES + 64 * 1024,
    drainBytes: 8 * 1024 * 1024,
    drainMs: 10_000,
  });
  // The body limit reads c.req.raw.body, which makes @hono/node-server build a full Request (with an AbortSignal) for
  // every call; GET and HEAD carry no body, so they skip it (about 10% of a list request's CPU in bench:api).
  app.use('/api/*', (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    return (c.req.method === 'POST' && PHOTO_UPLOAD_PATH.test(c.req.path) ? uploadLimit : bodyLimit)(c, next);
  });
  // The unsubscribe links of e-mails are exempt: a mail program's one-click POST (RFC 8058) comes from the mail
  // provider, with no Origin or with its own, and no session. The signed token in the request is its only
  // authority, so a request from another site can do nothing there that the token's holder could not do anyway.
  const checkOrigin = originCheck(env.ALLOWED_ORIGINS);
  app.use('/api/*', (c, next) => (TOKEN_PATHS.includes(c.req.path) ? next() : checkOrigin(c, next)));
  app.use('/api/*', sessionMiddleware(auth, sessionCookie(env.NODE_ENV), env.TRUST_PROXY_HOPS));
  const attempts = createAttemptCounter(db);
  const failedWindowMs = env.AUTH_FAILED_PER_ACCOUNT_WINDOW_MINUTES * MINUTE;
  const secondFactor = createSecondFactor(db, clock);
  // Settings (issue 13). Wrong passwords and codes are limited per account like sign-in's.
  const identity = createIdentityChecks(db, {
    clock,
    passwordMatches: (userId, password) => auth.passwordMatches(userId, password),
    secondFactor,
    counter: attempts,
    limit: { max: env.AUTH_FAILED_PER_ACCOUNT_MAX, windowMs: failedWindowMs },
  });
  // A repeated write (the same Idempotency-Key from the same person) gets the first one's answer, not a second run;
  // a sensitive route's repeat passes its identity check first.
  const idempotencyKeys = createIdempotencyStore(db, clock);
  app.use('/api/*', idempotency(idempotencyKeys, { recheck: (c) => identity.requireRecent(callerOf(c)) }));

  const api = createRouter();
  api.route(
    '/auth',
    authRoutes(
      auth,
      secondFactor,
      attempts,
      {
        failedPerAccountAddress: { max: env.AUTH_FAILED_PER_ACCOUNT_MAX, windowMs: failedWindowMs },
        failedPerAccount: { max: env.AUTH_FAILED_PER_ACCOUNT_ALL_ADDRESSES_MAX, windowMs: failedWindowMs },
        perIp: { max: env.AUTH_PER_IP_MAX, windowMs: env.AUTH_PER_IP_WINDOW_MINUTES * MINUTE },
      },
      env.TRUST_PROXY_HOPS,
    ),
  );
  // Forgotten password: requests per client address like sign-in's, per e-mail address like failed sign-ins.
  api.route(
    '/auth',
    recoveryRoutes(
      createRecoveryService(db, {
        clock,
        cost: {
          memoryCost: env.ARGON2_MEMORY_KIB,
          timeCost: env.ARGON2_TIME_COST,
          parallelism: env.ARGON2_PARALLELISM,
        },
        revokeUserSessions: (userId) => auth.revokeUserSessions(userId),
      }),
      attempts,
      {
        perIp: { max: env.AUTH_PER_IP_MAX, windowMs: env.AUTH_PER_IP_WINDOW_MINUTES * MINUTE },
        perAddress: { max: env.AUTH_FAILED_PER_ACCOUNT_MAX, windowMs: failedWindowMs },
      },
      env.TRUST_PROXY_HOPS,
    ),
  );
  const throttle = writeThrottle(attempts, {
    max: env.WRITE_LIMIT_PER_USER_MAX,
    windowMs: env.WRITE_LIMIT_PER_USER_WINDOW_SECONDS * 1000,
  });
  api.route('/account', accountRoutes(createAccountService(db, auth, identity, clock), identity, throttle));
  api.route(
    '/account',
    twoFactorRoutes(
      createTwoFactorService(createTwoFactorSettings(db, auth, clock), identity, {
        counter: attempts,
        limit: { max: env.AUTH_FAILED_PER_ACCOUNT_MAX, windowMs: failedWindowMs },
      }),
      throttle,
    ),
  );
  // Settings 'Email': the request and 'Cancel change' under /account, the mailed link under /auth (no session).
  const emailChange = createEmailChangeService(db, {
    clock,
    identity,
    auth,
    mailsPerAddress: { counter: attempts, limit: { max: env.AUTH_FAILED_PER_ACCOUNT_MAX, windowMs: failedWindowMs } },
  });
  api.route('/account', emailChangeRoutes(emailChange, throttle));
  api.route('/auth', confirmEmailRoutes(emailChange));
  // 'Your data' and 'Delete account'. Deletion ends the sessions inside its own transaction; the `user:` notice
  // (sent on commit) reaches every instance's session cache and live streams, as auth.revokeUserSessions' does.
  api.route(
    '/account',
    dataRoutes(
      createDataExport(db, { clock, listSessions: (userId) => auth.listSessions(userId) }),
      createAccountDeletion(db, identity, {
        clock,
        changeUser: (userId, work) => auth.changeUser(userId, work),
        endSessions: (tx, userId) => auth.endUserSessions(tx, userId),
        counter: attempts,
      }),
      identity,
      throttle,
    ),
  );
  // Places (issue 14): suggestions for the location fields; rides and requests check the chosen ids through it.
  const places = createPlaceService(db);
  api.route('/places', placeRoutes(places));
  api.route('/rides', rideRoutes(createRideService(db, places, alertMatching.rideCreated), throttle));
  api.route('/requests', requestRoutes(createRequestService(db, places, alertMatching.requestCreated), throttle));
  // Along the route, 'Ask to carry something', saved searches and route alerts (issue 14).
  api.route('/rides', alongRouteRoutes(createAlongRouteService(db), createAskService(db, clock), throttle));
  const savedSearches = createSavedSearchService(db);
  api.route('/rides', routeAlertRoutes(savedSearches, throttle));
  api.route('/saved-searches', savedSearchRoutes(savedSearches, throttle));
  api.route(
    '/bookings',
    bookingRoutes({
      service: createBookingService(db),
      reader: createBookingReader(db),
      transitions: createTransitions(db, attempts),
      throttle,
    }),
  );
  const messages = createMessageService(db);
  api.route(
    '/bookings',
    conversationRoutes({
      service: messages,
      throttle,
      counter: attempts,
      messageLimit: {
        max: env.MESSAGE_LIMIT_PER_USER_MAX,
        windowMs: env.MESSAGE_LIMIT_PER_USER_WINDOW_SECONDS * 1000,
      },
    }),
  );
  api.route('/messages', messageRoutes(messages));
  const reviewService = createReviewService(db, clock);
  api.route('/bookings', bookingReviewRoutes({ service: reviewService, throttle }));
  api.route('/reviews', reviewRoutes({ service: reviewService, throttle }));
  api.route('/dashboard', dashboardRoutes(createDashboardService(db)));
  api.route('/users', userRoutes(createProfileService(db)));
  api.route('/events', eventRoutes(hub));
  const unsubscribeTokens = createUnsubscribeTokens(db);
  api.route('/notifications', notificationRoutes(createNotificationService(db, unsubscribeTokens), throttle));
  api.route('/blocks', blockRoutes(createBlockService(db), throttle));
  api.route('/reports', reportRoutes(createReportService(db), throttle));
  // Suspension signs the person out on every instance (the session_revoked notification).
  api.route('/admin', adminRoutes(createAdminService(db, (userId) => auth.revokeUserSessions(userId))));
  api.route(
    '/contact',
    contactRoutes(
      createContactService(db),
      attempts,
      { max: env.CONTACT_PER_IP_MAX, windowMs: env.CONTACT_PER_IP_WINDOW_MINUTES * MINUTE },
      env.TRUST_PROXY_HOPS,
    ),
  );
  // Paths are documented as the router sees them; the server entry puts them under /api for generated clients.
  api.doc31('/openapi.json', {
    openapi: '3.1.0',
    info: { title: 'RuralRoute API', version: '1.0.0' },
    servers: [{ url: '/api' }],
  });
  api.get('/health', (c) => c.json({ ok: true }));
  app.route('/api', api);
  app.all('/api/*', () => {
    throw new DomainError('not_found', 'There is nothing at this address.');
  });

  if (clientDir) {
    // Support e-mail, phone and today's date are written into each page as it is sent (prerendered at build time).
    mountClient(app, clientDir, (html) => fillSiteConfig(html, siteConfigFor(env.SUPPORT_EMAIL, env.SUPPORT_PHONE)));
  }

  // Every error body is the shared envelope (src/shared/errors.ts), with the status ERROR_HTTP gives its code.
  app.onError((err, c) => {
    if (err instanceof DomainError) return sendError(c, err.code, err.message, err.details);
    if (err instanceof HTTPException && err.status < 500) {
      // Hono's own refusals of a request body, before any schema ran.
      if (err.status === 415)
        return sendError(
          c,
          'unsupported_media_type',
          PHOTO_UPLOAD_PATH.test(c.req.path)
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

  // Reviews whose 14-day period has ended are published by a sweep on every instance (idempotent: decision 019).
  const reviewSweep = periodic('reviews', createReviewSweep(db, clock).publishDue, env.REVIEW_SWEEP_SECONDS * 1000);

  // Background jobs (decision 020): every instance runs a worker, woken by the NOTIFY of each enqueue and by a
  // timer; claims skip each other's jobs, so a job runs once unless its worker dies mid-run (then again, later).
  const mailer = createMailer({
    smtpUrl: env.SMTP_URL,
    from: env.MAIL_FROM,
    dataDir: env.DATA_DIR,
    connections: env.JOBS_CONCURRENCY,
  });
  const jobs = createJobWorker(db, notifications, {
    clock,
    pollMs: env.JOBS_POLL_MS,
    concurrency: env.JOBS_CONCURRENCY,
    leaseMs: env.JOBS_LEASE_SECONDS * 1000,
  });
  jobs.register(EMAIL_JOB, emailJobHandler(mailer));
  jobs.register(
    NOTIFICATION_EMAIL_JOB,
    notificationMailHandler(db, mailer, unsubscribeTokens, { appUrl: env.APP_URL, clock }),
  );
  jobs.register(PASSWORD_RESET_JOB, passwordResetHandler(db, mailer, { appUrl: env.APP_URL, clock }));
  jobs.register(EMAIL_CHANGE_JOB, emailChangeMailHandler(db, mailer, { appUrl: env.APP_URL, clock }));
  jobs.register(
    ACCOUNT_DELETED_JOB,
    accountDeletedMailHandler(db, mailer, { appUrl: env.APP_URL, supportEmail: env.SUPPORT_EMAIL }),
  );
  // Old read notifications and finished jobs are deleted hourly by every instance (they skip each other's rows).
  const notificationSweep = createNotificationSweep(db, clock);
  // Expired idempotency keys, hourly on every instance (each deletes rows the others have not locked).
  const idempotencySweep = periodic('idempotency', idempotencyKeys.sweep, 3_600_000);
  // Browse list versions: rows of backends that have exited folded into one, every 5 minutes (db/list-cache.ts).
  const listVersionFold = periodic('list-versions', () => foldListVersions(db), 300_000);

  /**
   * Ends every live stream, stops the hub's, the sweeps' and the job worker's timers and listeners (waiting for
   * the jobs in flight); call before closing the database. `reviews.publishDue()` runs the review sweep now,
   * `notifications.sweep()` the cleanup of old notifications and jobs, `idempotency.sweep()` that of expired keys,
   * and `jobs.runDue()` the due jobs (tests).
   */
  return Object.assign(app, {
    close: async () => {
      await reviewSweep.close();
      await notificationSweep.close();
      await idempotencySweep.close();
      await listVersionFold.close();
      await jobs.close();
      mailer.close();
      await hub.close();
    },
    events: hub,
    reviews: { publishDue: reviewSweep.run },
    notifications: { sweep: notificationSweep.sweep },
    idempotency: { sweep: idempotencySweep.run },
    jobs,
  });
}
