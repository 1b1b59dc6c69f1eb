import type { Hono } from 'hono';
import {
  accountRoutes,
  confirmEmailRoutes,
  createAccountDeletion,
  createAccountService,
  createDataExport,
  createEmailChangeService,
  dataRoutes,
  emailChangeRoutes,
} from './account';
import { alertMatching, createSavedSearchService, routeAlertRoutes, savedSearchRoutes } from './alerts';
import { alongRouteRoutes, createAlongRouteService, createAskService } from './along-route';
import { MINUTE, type AppContext, type AppServices } from './app-services';
import { createEmailVerification } from './auth/email-verification';
import { emailVerificationRoutes, verifyEmailRoutes } from './auth/email-verification-routes';
import { createRecoveryService } from './auth/recovery';
import { recoveryRoutes } from './auth/recovery-routes';
import { authRoutes } from './auth/routes';
import { createTwoFactorService, createTwoFactorSettings, twoFactorRoutes } from './two-factor';
import { createBookingReader } from './bookings/detail';
import { bookingRoutes } from './bookings/routes';
import { createBookingService } from './bookings/service';
import { createTransitions } from './bookings/transitions';
import { adminSupportRoutes, contactRoutes } from './contact/routes';
import { createContactService } from './contact/service';
import { DomainError } from './core/domain-error';
import { adminDisputeRoutes, bookingDisputeRoutes, createDisputeService, disputePhotoRoutes } from './disputes';
import { dashboardRoutes } from './dashboard/routes';
import { createDashboardService } from './dashboard/service';
import { eventRoutes } from './events/routes';
import { adminIdCheckRoutes, createIdCheckService, createIdDocumentKeys, idCheckRoutes } from './id-checks';
import type { AppEnv } from './http/types';
import { createRouter } from './http/validation';
import { conversationRoutes, messageRoutes } from './messages/routes';
import { createMessageService } from './messages/service';
import { createAdminService } from './moderation/admin';
import { adminRoutes, blockRoutes, reportRoutes } from './moderation/routes';
import { createBlockService, createReportService } from './moderation/service';
import { createNotificationService, notificationRoutes } from './notifications';
import { createPlaceService, placeRoutes } from './places';
import { createEarlyAccess, earlyAccessRoutes, planRoutes } from './plans';
import { adminPaymentRoutes, createStripeEventReceiver, paymentRoutes, stripeWebhookRoutes } from './payments';
import { requestRoutes } from './requests/routes';
import { createRequestService } from './requests/service';
import { bookingReviewRoutes, createProfileService, createReviewService, reviewRoutes, userRoutes } from './reviews';
import { rideRoutes } from './rides/routes';
import { createRideService } from './rides/service';
import { createPhoneVerificationService, phoneVerificationRoutes } from './verification';

type Router = ReturnType<typeof createRouter>;

/**
 * Every path under /api, in the order they are matched: [where it is mounted, its router]. Each router names its
 * own routes and their schemas (the OpenAPI document at /api/openapi.json lists them all).
 */
function routeTable({ db, env, clock }: AppContext, s: AppServices): [string, Router][] {
  const { auth, attempts, identity, throttle, perAccount, perIp } = s;
  const places = createPlaceService(db);
  const savedSearches = createSavedSearchService(db);
  const messages = createMessageService(db);
  const reviews = createReviewService(db, clock);
  const emailChange = createEmailChangeService(db, {
    clock,
    identity,
    auth,
    mailsPerAddress: { counter: attempts, limit: perAccount },
  });
  const emailVerification = createEmailVerification(db, { clock, auth, counter: attempts });
  const bookingReader = createBookingReader(db, s.checkout);
  const disputes = createDisputeService(db, { payments: s.payments, reader: s.paymentReader });
  const contact = createContactService(db, { clock, appUrl: env.APP_URL, supportEmail: env.SUPPORT_EMAIL });
  const idChecks = createIdCheckService(db, {
    keys: createIdDocumentKeys(db, { current: env.ID_DOCUMENTS_KEY, old: env.ID_DOCUMENTS_OLD_KEYS }),
    clock,
  });
  const paymentDeps = {
    reader: s.paymentReader,
    payouts: s.payouts,
    provider: s.payments.provider,
    reconciliation: s.reconciliation,
    chargebacks: s.chargebacks,
    reserve: s.reserve,
    throttle,
  };

  return [
    // Sign-up, sign-in (limited per client address, per account and per address tried), the code step, sign-out.
    [
      '/auth',
      authRoutes(
        auth,
        s.secondFactor,
        attempts,
        {
          failedPerAccountAddress: perAccount,
          failedPerAccount: {
            max: env.AUTH_FAILED_PER_ACCOUNT_ALL_ADDRESSES_MAX,
            windowMs: env.AUTH_FAILED_PER_ACCOUNT_WINDOW_MINUTES * MINUTE,
          },
          perIp,
        },
        env.TRUST_PROXY_HOPS,
      ),
    ],
    // 'Forgot password?': requests per client address like sign-in's, per e-mail address like failed sign-ins.
    [
      '/auth',
      recoveryRoutes(
        createRecoveryService(db, {
          clock,
          cost: s.argon2,
          revokeUserSessions: (userId) => auth.revokeUserSessions(userId),
        }),
        attempts,
        { perIp, perAddress: perAccount },
        env.TRUST_PROXY_HOPS,
      ),
    ],
    // The link mailed to a new address (no session).
    ['/auth', confirmEmailRoutes(emailChange)],
    // The sign-up's 'Confirm your e-mail address' link (no session), and 'Resend email'.
    ['/auth', verifyEmailRoutes(emailVerification)],
    ['/account', emailVerificationRoutes(emailVerification, throttle)],
    // Settings: profile, password, sessions, 'Confirm it's you'; two-factor; 'Email'; 'Your data' and 'Delete account'.
    ['/account', accountRoutes(createAccountService(db, auth, identity, clock), identity, throttle)],
    [
      '/account',
      twoFactorRoutes(
        createTwoFactorService(createTwoFactorSettings(db, auth, clock), identity, {
          counter: attempts,
          limit: perAccount,
        }),
        throttle,
      ),
    ],
    ['/account', emailChangeRoutes(emailChange, throttle)],
    // Settings > 'Verification' > 'Phone number': a code by SMS (sends counted in PostgreSQL, per account and number).
    ['/account', phoneVerificationRoutes(createPhoneVerificationService(db, { clock, counter: attempts }), throttle)],
    // 'Verify your ID' (issue 37): my check's state and 'Send for checking'.
    ['/account', idCheckRoutes(idChecks, throttle)],
    // Deletion ends the sessions inside its own transaction; the `user:` notice (sent on commit) reaches every
    // instance's session cache and live streams, as auth.revokeUserSessions' does.
    [
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
    ],
    // Place suggestions for the location fields; rides and requests check the chosen places through them.
    ['/places', placeRoutes(places)],
    [
      '/rides',
      rideRoutes(createRideService(db, places, alertMatching.rideCreated, alertMatching.rideStopsChanged), throttle),
    ],
    ['/requests', requestRoutes(createRequestService(db, places, alertMatching.requestCreated, s.checkout), throttle)],
    // Along the route, 'Ask to carry something', saved searches and route alerts.
    ['/rides', alongRouteRoutes(createAlongRouteService(db), createAskService(db, clock), throttle)],
    ['/rides', routeAlertRoutes(savedSearches, throttle)],
    ['/saved-searches', savedSearchRoutes(savedSearches, throttle)],
    // Offers, choosing, the booking's steps, its conversation and its reviews.
    [
      '/bookings',
      bookingRoutes({
        service: createBookingService(db),
        reader: bookingReader,
        transitions: createTransitions(db, attempts, s.payments, throttle, s.hints),
        throttle,
      }),
    ],
    [
      '/bookings',
      conversationRoutes({
        service: messages,
        throttle,
        messageLimit: {
          max: env.MESSAGE_LIMIT_PER_USER_MAX,
          windowMs: env.MESSAGE_LIMIT_PER_USER_WINDOW_SECONDS * 1000,
        },
      }),
    ],
    ['/bookings', bookingReviewRoutes({ service: reviews, throttle })],
    // 'Report a problem' and its response (issue 36); the dispute photos; the moderators' queue and decisions.
    ['/bookings', bookingDisputeRoutes(disputes, bookingReader, throttle)],
    ['/disputes', disputePhotoRoutes(disputes)],
    ['/admin', adminDisputeRoutes(disputes, throttle)],
    // The moderators' ID checks: the queue, the photos while pending, the one decision.
    ['/admin', adminIdCheckRoutes(idChecks, throttle)],
    // The support inbox (issue 38): the contact form's messages, Plus and Community members' first; 'Reply' by e-mail.
    ['/admin', adminSupportRoutes(contact, throttle)],
    ['/messages', messageRoutes(messages)],
    ['/reviews', reviewRoutes({ service: reviews, throttle })],
    ['/dashboard', dashboardRoutes(createDashboardService(db))],
    ['/users', userRoutes(createProfileService(db))],
    // The live stream of the signed-in person (one per tab).
    ['/events', eventRoutes(s.hub)],
    // Stripe's webhooks, only when Stripe moves the money (no session, no Origin: the signature is checked). Before
    // paymentRoutes: its sign-in check covers every path under /payments, and Stripe never signs in.
    ...(s.stripe
      ? [
          [
            '/payments',
            stripeWebhookRoutes(
              createStripeEventReceiver(db, { stripe: s.stripe, secret: env.STRIPE_WEBHOOK_SECRET! }),
            ),
          ] satisfies [string, Router],
        ]
      : []),
    // My payments, earnings, receipts and payouts; the admins' payments page.
    ['/payments', paymentRoutes(paymentDeps)],
    // Settings > Plan (issue 38): my plan, subscribing, switching, cancelling, the card for renewals.
    ['/plan', planRoutes(s.plans, throttle)],
    // Settings' 'Try new features first' (Community's early access, decision 035).
    ['/account', earlyAccessRoutes(createEarlyAccess(db), throttle)],
    ['/admin/payments', adminPaymentRoutes(paymentDeps)],
    ['/notifications', notificationRoutes(createNotificationService(db, s.unsubscribeTokens), throttle)],
    ['/blocks', blockRoutes(createBlockService(db), throttle)],
    ['/reports', reportRoutes(createReportService(db), throttle)],
    // Moderators. Suspension signs the person out on every instance (the session_revoked notification).
    ['/admin', adminRoutes(createAdminService(db, (userId) => auth.revokeUserSessions(userId)))],
    [
      '/contact',
      contactRoutes(
        contact,
        attempts,
        { max: env.CONTACT_PER_IP_MAX, windowMs: env.CONTACT_PER_IP_WINDOW_MINUTES * MINUTE },
        env.TRUST_PROXY_HOPS,
      ),
    ],
  ];
}

/** Mounts the route table under /api, with the OpenAPI document and the health check; any other /api path is 404. */
export function mountRoutes(app: Hono<AppEnv>, context: AppContext, services: AppServices) {
  const api = createRouter();
  for (const [path, router] of routeTable(context, services)) api.route(path, router);
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
}
