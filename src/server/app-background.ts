import { EMAIL_VERIFY_JOB, emailVerificationMailHandler } from './auth/email-verification';
import { ACCOUNT_DELETED_JOB, accountDeletedMailHandler, EMAIL_CHANGE_JOB, emailChangeMailHandler } from './account';
import type { AppContext, AppServices } from './app-services';
import { PASSWORD_RESET_JOB, passwordResetHandler } from './auth/recovery';
import { periodic } from './core/periodic';
import { foldListVersions } from './db/list-versions';
import { poolWaiting } from './db/pool';
import { endHeldBooking } from './bookings';
import { createClaimJobs, GUARANTEE_CLAIM_JOB, GUARANTEE_REFUND_JOB } from './disputes';
import { createJobWorker } from './jobs';
import { createMailer, EMAIL_JOB, emailJobHandler } from './mail';
import { createNotificationSweep, NOTIFICATION_EMAIL_JOB, notificationMailHandler } from './notifications';
import {
  PAYMENT_REFUND_JOB,
  PAYMENT_VOID_JOB,
  PAYMENT_WEBHOOK_JOB,
  paymentWebhookHandler,
  PAYOUT_RUN_JOB,
  PAYOUT_SEND_JOB,
  RECONCILE_JOB,
} from './payments';
import { createReviewSweep } from './reviews';
import { createSmsSender } from './sms';
import { PHONE_CODE_JOB, phoneCodeSmsHandler } from './verification';

const HOUR = 3_600_000;

/**
 * What every instance does besides answering requests: the job worker and its mail handlers, and the sweeps. Each
 * is safe on several instances at once (claims and deletes skip each other's rows).
 */
export function startBackgroundWork({ db, env, notifications, clock }: AppContext, services: AppServices) {
  // Reviews whose 14-day period has ended are published (idempotent: decision 019).
  const reviewSweep = periodic('reviews', createReviewSweep(db, clock).publishDue, env.REVIEW_SWEEP_SECONDS * 1000);

  // Jobs (decision 020): woken by the NOTIFY of each enqueue and by a timer; a job runs once unless its worker dies
  // mid-run (then again, later).
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
    // Requests first: while they wait for a connection, e-mails go out one at a time (decision 042).
    busy: () => poolWaiting(db) > 0,
  });
  const appUrl = env.APP_URL;
  jobs.register(EMAIL_JOB, emailJobHandler(mailer));
  jobs.register(
    NOTIFICATION_EMAIL_JOB,
    notificationMailHandler(db, mailer, services.unsubscribeTokens, { appUrl, clock }),
  );
  jobs.register(PASSWORD_RESET_JOB, passwordResetHandler(db, mailer, { appUrl, clock }));
  jobs.register(EMAIL_CHANGE_JOB, emailChangeMailHandler(db, mailer, { appUrl, clock }));
  jobs.register(EMAIL_VERIFY_JOB, emailVerificationMailHandler(db, mailer, { appUrl, clock }));
  jobs.register(
    ACCOUNT_DELETED_JOB,
    accountDeletedMailHandler(db, mailer, { appUrl, supportEmail: env.SUPPORT_EMAIL }),
  );
  // Phone verification codes, by Twilio or into DATA_DIR/sms (SMS_PROVIDER).
  jobs.register(PHONE_CODE_JOB, phoneCodeSmsHandler(db, createSmsSender(env), { clock }));

  // Refunds decided in a booking's transaction, and charges whose choice failed, sent through the provider.
  jobs.register(PAYMENT_REFUND_JOB, services.payments.refundJob);
  jobs.register(PAYMENT_VOID_JOB, services.payments.voidJob);
  // Delivery Guarantee claims waiting for the reserve, and the card part of paid ones (issue 36).
  const claims = createClaimJobs(db, services.payments.provider);
  jobs.register(GUARANTEE_CLAIM_JOB, claims.claimJob);
  jobs.register(GUARANTEE_REFUND_JOB, claims.refundJob);
  jobs.register(PAYOUT_RUN_JOB, services.payouts.runJob);
  jobs.register(PAYOUT_SEND_JOB, services.payouts.sendJob);
  jobs.register(RECONCILE_JOB, services.reconciliation.job);
  // Each instance offers the day's reconciliation every hour; the day's key lets one through.
  const reconcileDaily = periodic('reconcile', () => services.reconciliation.scheduleDaily(clock()), HOUR);
  // Provider webhooks stored by the route, applied once each (a driver's payouts becoming active; plans on Stripe).
  jobs.register(
    PAYMENT_WEBHOOK_JOB,
    paymentWebhookHandler(db, services.payments.provider, endHeldBooking, async (type, payload) =>
      services.plans.prepareEvent(type, payload),
    ),
  );

  // Paid plans (issue 38): periods that end, renewals, graces that run out, on the app's clock (every instance;
  // each move is guarded by the subscription's lock and state).
  const planSweep = periodic('plans', services.plans.sweep, env.PLAN_SWEEP_SECONDS * 1000);

  // Old read notifications and finished jobs, hourly.
  const notificationSweep = createNotificationSweep(db, clock);
  // Expired idempotency keys, hourly.
  const idempotencySweep = periodic('idempotency', services.idempotencyKeys.sweep, HOUR);
  // Browse list versions: rows of backends that have exited folded into one, every 5 minutes (db/list-versions.ts).
  const listVersionFold = periodic('list-versions', () => foldListVersions(db), 5 * 60_000);

  return {
    /** Stops the sweeps' and the worker's timers and listeners, waiting for the jobs in flight. */
    close: async () => {
      await reviewSweep.close();
      await notificationSweep.close();
      await idempotencySweep.close();
      await listVersionFold.close();
      await reconcileDaily.close();
      await planSweep.close();
      await jobs.close();
      mailer.close();
    },
    /** Each sweep run now, and the due jobs (tests). */
    reviews: { publishDue: reviewSweep.run },
    notifications: { sweep: notificationSweep.sweep },
    idempotency: { sweep: idempotencySweep.run },
    plans: { sweep: planSweep.run },
    jobs,
  };
}
