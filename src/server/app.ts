import { Hono } from 'hono';
import { fillSiteConfig, siteConfigFor } from '../shared/site-config';
import { startBackgroundWork } from './app-background';
import { applyMiddleware, handleErrors } from './app-middleware';
import { mountRoutes } from './app-routes';
import { createAppServices } from './app-services';
import type { Db } from './db/client';
import type { Notifications } from './db/notify';
import type { Env } from './env';
import { loadClient, mountClient } from './http/static';
import type { AppEnv } from './http/types';

export interface AppOptions {
  db: Db;
  env: Env;
  /** Directory of the built client to serve; omitted in API tests. */
  clientDir?: string;
  /** The database's LISTEN/NOTIFY (Database.notifications); without it the session cache stays off. */
  notifications?: Notifications;
  /**
   * The time the rules and the job worker read (the 14-day review period, when reviews are published); the wall
   * clock unless a test moves it.
   */
  clock?: () => Date;
}

/**
 * The whole app, in the order a request meets it: the middleware stack (app-middleware.ts), the route table
 * (app-routes.ts), the built client, the error handler; and beside it the background work (app-background.ts).
 * The services more than one of them use are made once (app-services.ts).
 */
export function createApp({ db, env, clientDir, notifications, clock = () => new Date() }: AppOptions) {
  const context = { db, env, notifications, clock };
  const services = createAppServices(context);

  const app = new Hono<AppEnv>();
  const client = clientDir ? loadClient(clientDir) : undefined;
  applyMiddleware(app, env, services, client?.inlineScripts ?? []);
  mountRoutes(app, context, services);
  if (client) {
    // Support e-mail, phone and today's date are written into each page as it is sent (prerendered at build time).
    mountClient(app, client, (html) => fillSiteConfig(html, siteConfigFor(env.SUPPORT_EMAIL, env.SUPPORT_PHONE)));
  }
  handleErrors(app);

  const background = startBackgroundWork(context, services);

  /**
   * `close` ends every live stream and stops the background work (call before closing the database); `events` is
   * the live-event hub, and `reviews`, `notifications`, `idempotency` and `jobs` run a sweep or the due jobs now;
   * `payments` is the payment flow.
   */
  return Object.assign(app, {
    close: async () => {
      await background.close();
      // The hints of writes already committed go out before the database closes.
      await services.hints.drain();
      await services.hub.close();
    },
    events: services.hub,
    reviews: background.reviews,
    notifications: background.notifications,
    idempotency: background.idempotency,
    jobs: background.jobs,
    /** The payment flow, payouts and reconciliation. */
    payments: services.payments,
    payouts: services.payouts,
    reconciliation: services.reconciliation,
    /** Paid plans (issue 38); `plans.sweep` runs the plans sweep now (tests move the clock, then run it). */
    plans: { ...services.plans, sweep: background.plans.sweep },
  });
}
