// The notifications feature's public module (docs/notifications.md): features call `notify` inside the
// transaction of the event (with the Outbox they flush last); app.ts wires the routes, the e-mail job and the sweep.
export {
  notify,
  notifyInput,
  NOTIFICATION_EMAIL_JOB,
  NOTIFY_SETTINGS,
  type NewNotification,
  type NotifyInput,
} from './write';
export { createNotificationService, NOTIFICATION_NOT_FOUND, type NotificationService } from './service';
export { notificationRoutes, TOKEN_PATHS } from './routes';
export { notificationMailHandler, type NotificationMailOptions } from './mail-job';
export { createUnsubscribeTokens, type UnsubscribeClaim, type UnsubscribeTokens } from './unsubscribe';
export { createNotificationSweep, type NotificationSweep, type SweepResult } from './sweep';
export { liveEventData } from './row-to-notification';
