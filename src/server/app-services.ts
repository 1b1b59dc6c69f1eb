import { callerOf, createIdentityChecks } from './account';
import { createSecondFactor } from './two-factor';
import { createAuthService, SESSION_REVOKED } from './auth/service';
import { hashToken } from './auth/tokens';
import type { Db } from './db/client';
import type { Notifications } from './db/notify';
import type { PaymentCheckout } from '../shared/payments';
import type { Env } from './env';
import { createEventHub, createHintSender } from './events';
import { createIdempotencyStore } from './idempotency';
import { createAttemptCounter } from './limits';
import { writeThrottle } from './limits/middleware';
import { createUnsubscribeTokens, liveEventData } from './notifications';
import { createPlans, createStripeBilling } from './plans';
import { createPaymentServices, createStripeClient, createStripeProvider, createTestProvider } from './payments';

export const MINUTE = 60_000;

/** What createApp is given: the database, the settings, and the clock the rules read. */
export interface AppContext {
  db: Db;
  env: Env;
  notifications?: Notifications;
  clock: () => Date;
}

/**
 * The services that more than one part of the app uses: the middleware stack, the route table and the background
 * work (app-middleware.ts, app-routes.ts, app-background.ts). A service that one router alone uses is made there.
 */
export function createAppServices({ db, env, notifications, clock }: AppContext) {
  const argon2 = {
    memoryCost: env.ARGON2_MEMORY_KIB,
    timeCost: env.ARGON2_TIME_COST,
    parallelism: env.ARGON2_PARALLELISM,
  };
  const auth = createAuthService(
    db,
    argon2,
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
    word: liveEventData,
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

  // The NOTIFYs a write hands back to be sent after its commit (a booking's move; events/hints.ts, decision 047).
  const hints = createHintSender(db);

  const attempts = createAttemptCounter(db);
  /** Wrong passwords, codes and mails per address are limited like failed sign-ins. */
  const perAccount = {
    max: env.AUTH_FAILED_PER_ACCOUNT_MAX,
    windowMs: env.AUTH_FAILED_PER_ACCOUNT_WINDOW_MINUTES * MINUTE,
  };
  const perIp = { max: env.AUTH_PER_IP_MAX, windowMs: env.AUTH_PER_IP_WINDOW_MINUTES * MINUTE };
  const secondFactor = createSecondFactor(db, clock);
  // The re-check of sensitive actions ('Confirm it's you').
  const identity = createIdentityChecks(db, {
    clock,
    passwordMatches: (userId, password) => auth.passwordMatches(userId, password),
    secondFactor,
    counter: attempts,
    limit: perAccount,
  });
  // The payments provider (docs/payments.md): the embedded test provider, or Stripe. readEnv has checked that the
  // three STRIPE_ keys are there when it is Stripe.
  const stripe =
    env.PAYMENTS_PROVIDER === 'stripe'
      ? createStripeClient({ secretKey: env.STRIPE_SECRET_KEY!, apiBase: env.STRIPE_API_BASE })
      : null;
  const throttle = writeThrottle(attempts, {
    max: env.WRITE_LIMIT_PER_USER_MAX,
    windowMs: env.WRITE_LIMIT_PER_USER_WINDOW_SECONDS * 1000,
  });
  const paymentServices = createPaymentServices(
    db,
    stripe ? createStripeProvider(stripe) : createTestProvider(db),
    env.APP_URL,
  );

  return {
    argon2,
    auth,
    hub,
    hints,
    attempts,
    perAccount,
    perIp,
    secondFactor,
    identity,
    /** A repeat of a sensitive request passes this first (idempotency/middleware.ts). */
    recheck: (c: Parameters<typeof callerOf>[0]) => identity.requireRecent(callerOf(c)),
    throttle,
    idempotencyKeys: createIdempotencyStore(db, clock),
    unsubscribeTokens: createUnsubscribeTokens(db),
    /** Payments (issue 35): the flow of a booking's money, payouts, reconciliation, on the configured provider. */
    ...paymentServices,
    /** Paid plans (issue 38) on the same provider and ledger. */
    plans: createPlans(
      db,
      paymentServices.payments.provider,
      clock,
      stripe
        ? createStripeBilling(
            db,
            stripe,
            {
              prices:
                env.STRIPE_PRICE_PLUS && env.STRIPE_PRICE_COMMUNITY
                  ? { plus: env.STRIPE_PRICE_PLUS, community: env.STRIPE_PRICE_COMMUNITY }
                  : null,
              appUrl: env.APP_URL,
            },
            clock,
          )
        : null,
    ),
    /** The Stripe SDK's client under PAYMENTS_PROVIDER=stripe (its webhooks' signature check), else null. */
    stripe,
    /** How the pay dialog takes the card (payment_quote): the provider, and Stripe's publishable key with Stripe. */
    checkout: {
      provider: env.PAYMENTS_PROVIDER,
      publishable_key: env.PAYMENTS_PROVIDER === 'stripe' ? env.STRIPE_PUBLISHABLE_KEY! : null,
    } satisfies PaymentCheckout,
  };
}

export type AppServices = ReturnType<typeof createAppServices>;
