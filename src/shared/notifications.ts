import { z } from 'zod';
import { LONG_DATE_UTC } from './dates';
import { ALL_CANCEL_REASONS } from './lifecycle';
import { formatCents, TEST_MODE_NOTICE } from './money';
import { PLAN_TEXT } from './plans';
import { ID_RETRY_HOURS } from './verification';
import { alongRoutePath, bookingDetailPath, PAGE_PATHS, profilePath, requestDetailPath } from './routes';

/**
 * Notifications (docs/notifications.md). Each one is a row written in the same transaction as the event
 * that causes it, with its e-mail job (the transactional outbox); in the app they are listed newest first at
 * `/dashboard/notifications` and arrive live as `notification.created`. The wording is built here, from the row's
 * type and data, so the app and the e-mail say the same thing.
 */
export const NOTIFICATION_TYPES = [
  'offer_received',
  'offer_chosen',
  'offer_declined',
  'booking_cancelled',
  'picked_up',
  'delivery_completed',
  'message',
  'review_published',
  'ride_ask',
  'search_match',
  'payment_held',
  'payment_released',
  'payment_refunded',
  'payout_sent',
  'dispute_opened',
  'dispute_resolved',
  'chargeback',
  'id_check',
  'plan',
  'password_changed',
  'email_changed',
  'new_sign_in',
  'two_factor_enabled',
  'two_factor_disabled',
] as const;
export const notificationTypeSchema = z.enum(NOTIFICATION_TYPES);
export type NotificationType = z.infer<typeof notificationTypeSchema>;

/** Always e-mailed, without an unsubscribe link; not on the settings page's switches. */
export const SECURITY_NOTIFICATION_TYPES = [
  'password_changed',
  'email_changed',
  'new_sign_in',
  'two_factor_enabled',
  'two_factor_disabled',
] as const satisfies readonly NotificationType[];
export type SecurityNotificationType = (typeof SECURITY_NOTIFICATION_TYPES)[number];
export const isSecurityType = (t: NotificationType): t is SecurityNotificationType =>
  (SECURITY_NOTIFICATION_TYPES as readonly string[]).includes(t);
/** The types a person can switch e-mail off for, in the settings page's order. */
export const OPTIONAL_NOTIFICATION_TYPES = NOTIFICATION_TYPES.filter(
  (t): t is Exclude<NotificationType, SecurityNotificationType> => !isSecurityType(t),
);

/** The settings page's label of each type (and the unsubscribe page's 'You will no longer get e-mails about ...'). */
export const NOTIFICATION_TYPE_LABELS: Record<NotificationType, string> = {
  offer_received: 'New offers on my requests',
  offer_chosen: 'I was chosen to carry something',
  offer_declined: 'My offer was declined',
  booking_cancelled: 'A booking was cancelled',
  picked_up: 'My item was picked up',
  delivery_completed: 'A delivery was completed',
  message: 'New messages',
  review_published: 'A review of me was published',
  ride_ask: 'Someone asks me to carry something on my ride',
  search_match: 'New matches for my saved searches and route alerts',
  payment_held: 'A payment for my delivery is held',
  payment_released: 'Money for my delivery was released to me',
  payment_refunded: 'I was refunded',
  payout_sent: 'A payout was sent to my bank account',
  dispute_opened: 'A problem was reported on my delivery',
  dispute_resolved: 'RuralRoute decided on a reported problem',
  chargeback: 'A card dispute holds or ends a payment for my delivery',
  id_check: 'RuralRoute decided on my ID check',
  plan: 'My plan: payments, renewals and rewards',
  password_changed: 'My password was changed',
  email_changed: 'My e-mail address was changed',
  new_sign_in: 'Sign-in from a new browser',
  two_factor_enabled: 'Two-factor authentication was turned on',
  two_factor_disabled: 'Two-factor authentication was turned off',
};

/** A message e-mail is sent at most once per conversation in this many minutes, and only if still unread. */
export const MESSAGE_MAIL_INTERVAL_MINUTES = 15;
/** A message e-mail waits this long first, so a message read at once sends no mail. */
export const MESSAGE_MAIL_DELAY_SECONDS = 60;
/** Read notifications are kept this many days; unread ones until read. */
export const NOTIFICATION_RETENTION_DAYS = 180;

/**
 * What a notification row holds besides its type (jsonb `data`, filled when it is written): the names and title as
 * they were then, and the ids its link needs. Every field is optional; the wording falls back to neutral words.
 */
export const notificationDataSchema = z.object({
  /** The person who caused it (the driver who offered, the sender, the reviewer ...). */
  actor_name: z.string().optional(),
  /** The request's title. */
  title: z.string().optional(),
  booking_id: z.string().optional(),
  request_id: z.string().optional(),
  /** offer_declined: why ('declined' by the requester, 'other_chosen', 'request_withdrawn'). */
  cause: z.string().optional(),
  /** booking_cancelled: the reason code (CANCEL_REASONS), or 'withdrawn' when a driver withdrew a pending offer. */
  reason: z.string().optional(),
  /** delivery_completed: 'completed' (the driver entered the code) or 'received' (the requester confirmed). */
  how: z.string().optional(),
  /** message: how many unread messages this notification stands for (it is updated while unread). */
  count: z.number().int().optional(),
  /** review_published: the stars given. */
  rating: z.number().int().optional(),
  /** new_sign_in: the browser and system, e.g. 'Chrome on Windows'. */
  browser: z.string().optional(),
  /** email_changed: the new address (the notice goes to the old one, `to`). */
  new_email: z.string().optional(),
  /** email_changed: where the e-mail goes instead of the account's current address. */
  to: z.string().optional(),
  /** ride_ask, search_match of a route alert: the ride (its 'Requests along this route' page). */
  ride_id: z.string().optional(),
  /** search_match: the saved search's name and kind, and the Browse path with its filters. */
  search_id: z.string().optional(),
  search_name: z.string().optional(),
  kind: z.string().optional(),
  path: z.string().optional(),
  /** The recipient's own id (review_published links to their profile). */
  user_id: z.string().optional(),
  /** Payments (the receipt): the delivery's compensation, the fee, the total paid, what was refunded or paid out. */
  compensation_cents: z.number().int().optional(),
  fee_cents: z.number().int().optional(),
  total_cents: z.number().int().optional(),
  amount_cents: z.number().int().optional(),
  /** The card's (or, for a payout, the bank account's) last four digits, and the card's network. */
  last4: z.string().optional(),
  card_brand: z.string().optional(),
  /** When the money moved (ISO). */
  at: z.string().optional(),
  /** id_check: 'approved' or 'rejected'; `reason` is then the reason's label. */
  /** dispute_resolved: the decision as both people read it (disputes.ts decisionText), and the moderator's note. */
  decision_text: z.string().optional(),
  note: z.string().optional(),
  /** plan: the plan's name ('Plus'), the period's end (ISO), a switch's unused time and the credit spent. */
  plan: z.string().optional(),
  period_end: z.string().optional(),
  proration_cents: z.number().int().optional(),
  credit_cents: z.number().int().optional(),
  /** The embedded test provider moved it: no real money (the receipt says so). */
  test_mode: z.boolean().optional(),
});
export type NotificationData = z.infer<typeof notificationDataSchema>;

const quoted = (title: string | undefined) => (title ? `“${title}”` : 'your item');
const money = (cents: number | undefined) => formatCents(cents ?? 0);
const who = (name: string | undefined) => name || 'Someone';

/** The notification in one sentence (the in-app text, and the e-mail's sentence). */
export function notificationText(type: NotificationType, d: NotificationData): string {
  const t = quoted(d.title);
  switch (type) {
    case 'offer_received':
      return `${who(d.actor_name)} offered to carry ${t}.`;
    case 'offer_chosen':
      return `${who(d.actor_name)} chose you to carry ${t}.`;
    case 'offer_declined':
      if (d.cause === 'other_chosen') return `Another driver was chosen to carry ${t}.`;
      if (d.cause === 'request_withdrawn') return `The request ${t} was withdrawn, so your offer was declined.`;
      return `Your offer to carry ${t} was declined.`;
    case 'booking_cancelled': {
      if (d.reason === 'withdrawn') return `${who(d.actor_name)} withdrew their offer to carry ${t}.`;
      const label = ALL_CANCEL_REASONS[d.reason as keyof typeof ALL_CANCEL_REASONS];
      return `${who(d.actor_name)} cancelled the booking for ${t}${label ? ` (${label})` : ''}.`;
    }
    case 'picked_up':
      return `${who(d.actor_name)} picked up ${t}.`;
    case 'delivery_completed':
      return d.how === 'received'
        ? `${who(d.actor_name)} confirmed receiving ${t}.`
        : `${who(d.actor_name)} delivered ${t}.`;
    case 'message': {
      const n = d.count ?? 1;
      return n > 1
        ? `${who(d.actor_name)} sent you ${n} messages about ${t}.`
        : `${who(d.actor_name)} sent you a message about ${t}.`;
    }
    case 'review_published':
      return `${who(d.actor_name)} reviewed you for ${t}.`;
    case 'ride_ask':
      return `${who(d.actor_name)} asked you to carry ${t} on your ride.`;
    case 'search_match': {
      const n = d.count ?? 1;
      const what =
        d.kind === 'rides'
          ? n > 1
            ? `${n} new rides match`
            : 'A new ride matches'
          : n > 1
            ? `${n} new requests match`
            : 'A new request matches';
      return d.ride_id
        ? `${n > 1 ? `${n} new requests are` : 'A new request is'} along your route${d.search_name ? ` (${d.search_name})` : ''}.`
        : `${what} your search${d.search_name ? ` “${d.search_name}”` : ''}.`;
    }
    case 'payment_held':
      return `${who(d.actor_name)} paid ${money(d.compensation_cents)} for ${t}; it is held until delivery.`;
    case 'payment_released':
      return `${money(d.amount_cents)} for ${t} was released to you.`;
    case 'payment_refunded':
      return d.amount_cents !== undefined && d.total_cents !== undefined && d.amount_cents < d.total_cents
        ? `You were refunded ${money(d.amount_cents)} of the ${money(d.total_cents)} you paid for ${t}.`
        : `You were refunded ${money(d.amount_cents)} for ${t}.`;
    case 'payout_sent':
      return d.last4
        ? `${money(d.amount_cents)} was paid out to your bank account ending in ${d.last4}.`
        : `${money(d.amount_cents)} was paid out to your bank account.`;
    case 'dispute_opened':
      return d.kind === 'claim'
        ? `${who(d.actor_name)} claimed the Delivery Guarantee for ${t}.`
        : d.kind === 'hold'
          ? `${who(d.actor_name)} reported a problem with ${t}. The payment is on hold until RuralRoute decides.`
          : `${who(d.actor_name)} reported a problem with ${t}.`;
    case 'dispute_resolved':
      return `RuralRoute decided on the problem reported for ${t}: ${d.decision_text ?? 'see the booking'}`;
    case 'chargeback':
      return d.kind === 'won'
        ? `The bank closed the card dispute of the payment for ${t}. The payment is no longer on hold.`
        : d.kind === 'lost'
          ? `The bank decided the card dispute of the payment for ${t} for the cardholder. The booking is cancelled.`
          : `The requester’s bank is reviewing a card dispute of the payment for ${t}. The payment is on hold until the bank decides.`;
    case 'id_check':
      return d.kind === 'approved'
        ? 'Your ID check was approved. Your profile now shows ‘ID checked’.'
        : `Your ID check was not approved${d.reason ? ` (${d.reason})` : ''}. You can try again in ${ID_RETRY_HOURS} hours.`;
    case 'plan':
      return planNoticeText(d);
    case 'password_changed':
      return 'The password of your RuralRoute account was changed.';
    case 'email_changed':
      return d.new_email
        ? `The e-mail address of your RuralRoute account was changed to ${d.new_email}.`
        : 'The e-mail address of your RuralRoute account was changed.';
    case 'new_sign_in':
      return d.browser
        ? `Someone signed in to your RuralRoute account from a new browser (${d.browser}).`
        : 'Someone signed in to your RuralRoute account from a new browser.';
    case 'two_factor_enabled':
      return 'Two-factor authentication was turned on for your RuralRoute account.';
    case 'two_factor_disabled':
      return 'Two-factor authentication was turned off for your RuralRoute account.';
  }
}

/** A plan's notice (issue 38): charged, renewed, switched, a failed renewal, the end, a Community reward. */
function planNoticeText(d: NotificationData): string {
  const plan = d.plan ?? 'paid';
  const until = d.period_end ? LONG_DATE_UTC.format(new Date(d.period_end)) : null;
  switch (d.kind) {
    case 'subscribed':
      return `Welcome to RuralRoute ${plan}. You paid ${money(d.amount_cents)}${until ? `; your plan runs until ${until}` : ''}.`;
    case 'renewed':
      return `Your ${plan} plan was renewed for ${money(d.amount_cents)}${until ? `, until ${until}` : ''}.`;
    case 'switched':
      return `You switched to ${plan}. You paid ${money(d.amount_cents)}${until ? `; your plan runs until ${until}` : ''}.`;
    case 'payment_failed':
      return PLAN_TEXT.paymentFailed(plan);
    case 'ended':
      return `Your ${plan} plan has ended. You are on the Free plan now.`;
    case 'reward':
      return `You earned ${money(d.amount_cents)} of RuralRoute credit for your ${d.count ?? ''}th completed delivery.`;
    default:
      return `Your ${plan} plan changed.`;
  }
}

function planNoticeSubject(d: NotificationData): string {
  const plan = d.plan ?? 'paid';
  switch (d.kind) {
    case 'subscribed':
      return `Welcome to RuralRoute ${plan}`;
    case 'renewed':
      return `Your ${plan} plan was renewed`;
    case 'switched':
      return `You switched to ${plan}`;
    case 'payment_failed':
      return `Your payment for ${plan} failed`;
    case 'ended':
      return `Your ${plan} plan has ended`;
    case 'reward':
      return `You earned ${money(d.amount_cents)} of RuralRoute credit`;
    default:
      return `Your ${plan} plan`;
  }
}

/** The e-mail's subject. */
export function notificationSubject(type: NotificationType, d: NotificationData): string {
  const t = quoted(d.title);
  switch (type) {
    case 'offer_received':
      return `New offer on ${t}`;
    case 'offer_chosen':
      return `You were chosen to carry ${t}`;
    case 'offer_declined':
      return `Your offer on ${t} was declined`;
    case 'booking_cancelled':
      return `Booking cancelled: ${t}`;
    case 'picked_up':
      return `${t} was picked up`;
    case 'delivery_completed':
      return `Delivery completed: ${t}`;
    case 'message':
      return `New message from ${who(d.actor_name)}`;
    case 'review_published':
      return `${who(d.actor_name)} reviewed you`;
    case 'ride_ask':
      return `${who(d.actor_name)} asked you to carry ${t}`;
    case 'search_match':
      return d.ride_id ? 'New requests along your route' : `New matches for “${d.search_name ?? 'your search'}”`;
    case 'payment_held':
      return `Payment held for ${t}`;
    case 'payment_released':
      return `Payment released: ${t}`;
    case 'payment_refunded':
      return `Refund for ${t}`;
    case 'payout_sent':
      return `Payout of ${money(d.amount_cents)} sent`;
    case 'dispute_opened':
      return `Problem reported: ${t}`;
    case 'dispute_resolved':
      return `Decision on the problem with ${t}`;
    case 'chargeback':
      return d.kind === 'opened' ? `Payment on hold: ${t}` : `Card dispute closed: ${t}`;
    case 'id_check':
      return d.kind === 'approved' ? 'Your ID check was approved' : 'Your ID check was not approved';
    case 'plan':
      return planNoticeSubject(d);
    case 'password_changed':
      return 'Your password was changed';
    case 'email_changed':
      return 'Your e-mail address was changed';
    case 'new_sign_in':
      return 'New sign-in to your account';
    case 'two_factor_enabled':
      return 'Two-factor authentication turned on';
    case 'two_factor_disabled':
      return 'Two-factor authentication turned off';
  }
}

const CARD_BRANDS: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
};
/** 'Visa ending in 4242' (a receipt's card line). */
export const cardLabel = (brand: string | null | undefined, last4: string) =>
  `${CARD_BRANDS[brand ?? ''] ?? 'Card'} ending in ${last4}`;

/** The receipt a payment notice's e-mail carries (label, value), or null for other types. */
export function notificationReceipt(type: NotificationType, d: NotificationData): [string, string][] | null {
  const date = d.at ? LONG_DATE_UTC.format(new Date(d.at)) : null;
  const lines: [string, string][] = [];
  const add = (label: string, value: string | null | undefined | false) => value && lines.push([label, value]);
  switch (type) {
    case 'payment_held':
    case 'payment_released':
      add('Delivery', d.title ? `“${d.title}”` : null);
      add(type === 'payment_held' ? 'Held for you' : 'Released to you', money(d.compensation_cents ?? d.amount_cents));
      break;
    case 'payment_refunded':
      add('Delivery', d.title ? `“${d.title}”` : null);
      add('Compensation', d.compensation_cents !== undefined && money(d.compensation_cents));
      add('Service fee', d.fee_cents !== undefined && money(d.fee_cents));
      add('Total paid', d.total_cents !== undefined && money(d.total_cents));
      add('Refunded', money(d.amount_cents));
      add('Card', d.last4 && cardLabel(d.card_brand, d.last4));
      break;
    case 'plan':
      if (d.kind !== 'subscribed' && d.kind !== 'renewed' && d.kind !== 'switched') return null;
      add('Plan', d.plan ? `RuralRoute ${d.plan}` : null);
      add('Price', d.total_cents !== undefined && money(d.total_cents));
      add('Unused time credited', !!d.proration_cents && `-${money(d.proration_cents)}`);
      add('RuralRoute credit', !!d.credit_cents && `-${money(d.credit_cents)}`);
      add('Paid by card', money(d.amount_cents));
      add('Card', d.last4 && cardLabel(d.card_brand, d.last4));
      add('Paid until', d.period_end && LONG_DATE_UTC.format(new Date(d.period_end)));
      break;
    case 'payout_sent':
      add('Paid out', money(d.amount_cents));
      add('Bank account', d.last4 && `ending in ${d.last4}`);
      break;
    default:
      return null;
  }
  add('Date', date);
  add('Booking', d.booking_id ?? null);
  add('Note', d.test_mode && TEST_MODE_NOTICE);
  return lines;
}

/** Where the notification leads in the app (a path; e-mails prefix the app's public address). */
export function notificationLink(type: NotificationType, d: NotificationData): string {
  switch (type) {
    case 'offer_received':
      return d.request_id ? requestDetailPath(d.request_id) : PAGE_PATHS.myRequests;
    case 'message':
      return d.booking_id ? `${bookingDetailPath(d.booking_id)}#messages` : PAGE_PATHS.messages;
    case 'review_published':
      return d.booking_id ? bookingDetailPath(d.booking_id) : d.user_id ? profilePath(d.user_id) : PAGE_PATHS.dashboard;
    case 'ride_ask':
      return d.ride_id ? alongRoutePath(d.ride_id) : PAGE_PATHS.myRides;
    case 'search_match':
      return d.ride_id ? alongRoutePath(d.ride_id) : (d.path ?? PAGE_PATHS.alerts);
    case 'payout_sent':
      return `${PAGE_PATHS.payments}?tab=earned`;
    case 'id_check':
      return `${PAGE_PATHS.settings}#verification`;
    case 'plan':
      return d.kind === 'reward' ? `${PAGE_PATHS.payments}?tab=earned` : PAGE_PATHS.planSettings;
    case 'password_changed':
    case 'email_changed':
    case 'new_sign_in':
    case 'two_factor_enabled':
    case 'two_factor_disabled':
      return PAGE_PATHS.settings;
    default:
      return d.booking_id ? bookingDetailPath(d.booking_id) : PAGE_PATHS.myBookings;
  }
}

/** One notification as the API returns it (`GET /api/notifications`, and `notification.created`). */
export const notificationSchema = z.object({
  id: z.string().uuid(),
  type: notificationTypeSchema,
  /** notificationText of the row. */
  text: z.string(),
  /** notificationLink of the row (an app path). */
  link: z.string(),
  created_at: z.string(),
  read_at: z.string().nullable(),
});
export type Notification = z.infer<typeof notificationSchema>;

/** `GET /api/notifications/unread` (the bell). */
export const notificationUnreadSchema = z.object({ count: z.number().int().min(0) });
export type NotificationUnread = z.infer<typeof notificationUnreadSchema>;

/** `GET /api/notifications/settings`; `PATCH` takes `{ email: { [type]: boolean } }` for optional types only. */
export const notificationSettingsSchema = z.object({
  /** The address mails go to. */
  address: z.string(),
  email: z.record(z.enum(OPTIONAL_NOTIFICATION_TYPES), z.boolean()),
});
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;
export const notificationSettingsPatchSchema = z.object({
  email: z.partialRecord(z.enum(OPTIONAL_NOTIFICATION_TYPES), z.boolean({ error: 'Must be true or false' })),
});
export type NotificationSettingsPatch = z.infer<typeof notificationSettingsPatchSchema>;

/** `POST /api/notifications/unsubscribe` (and `/resubscribe`) `{ token }` -> the type and its new e-mail switch. */
export const unsubscribeInputSchema = z.object({ token: z.string().min(1).max(500) });
export const unsubscribeResultSchema = z.object({ type: notificationTypeSchema, email: z.boolean() });
export type UnsubscribeResult = z.infer<typeof unsubscribeResultSchema>;
export const UNSUBSCRIBE_INVALID_MESSAGE =
  'This unsubscribe link is not valid. Change e-mail settings after signing in.';

/** UI words. */
export const NOTIFICATIONS_EMPTY_TEXT = "You're all caught up.";
export const MARK_ALL_READ_LABEL = 'Mark all as read';
