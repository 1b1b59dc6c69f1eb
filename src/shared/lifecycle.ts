import { z } from 'zod';
import { disputeViewSchema } from './disputes';
import { bookingPaymentSchema, paymentQuoteSchema } from './payments';
import { ratingSummarySchema } from './rating';
import { bookingStatusSchema, requestStatusSchema } from './statuses';
import { NUL_MESSAGE, noNul } from './text';
import { personSchema, shownPersonSchema } from './verification';

/**
 * The booking lifecycle's contracts (shared/design.md "Booking lifecycle"), shared by the server's state
 * machine, its routes and the client's pages.
 *
 *   booking:  pending --choose--> confirmed --complete (code) | receive--> completed
 *                |  \--decline / another offer chosen / request withdrawn--> declined
 *                \--withdraw (driver)--> cancelled        confirmed --cancel (either, reason)--> cancelled
 *   request:  open --a booking confirmed--> matched --completed--> completed;  matched --booking cancelled--> open
 */

export const bookingRoleSchema = z.enum(['driver', 'requester']);
export type BookingRole = z.infer<typeof bookingRoleSchema>;

/** What a person can do to a booking; each is `POST /api/bookings/:id/<action>`. */
export const bookingActionSchema = z.enum(['choose', 'decline', 'withdraw', 'cancel', 'pickup', 'complete', 'receive']);
export type BookingAction = z.infer<typeof bookingActionSchema>;

/** The timeline's event kinds: `offered` (Accept), one per action, and `request_withdrawn` (the request was deleted). */
export const bookingEventTypeSchema = z.enum([
  'offered',
  'chosen',
  'declined',
  'withdrawn',
  'cancelled',
  'picked_up',
  'completed',
  'received',
  /** Declined because the requester chose another driver. */
  'other_chosen',
  'request_withdrawn',
  /** Completed by a moderator's decision on a dispute (the money released, or split). */
  'resolved',
]);
export type BookingEventType = z.infer<typeof bookingEventTypeSchema>;

/** 'Cancel booking' reasons: stored as the code, shown as the label. */
export const CANCEL_REASONS = {
  plans_changed: 'Plans changed',
  too_late: "Can't make it in time",
  item_not_ready: 'Item not ready',
  other: 'Other',
} as const;
/** Reasons nobody picks: the app cancels with them (a deleted account's confirmed bookings). */
export const SYSTEM_CANCEL_REASONS = {
  account_deleted: 'Account deleted',
  // A moderator refunded the requester on a dispute (issue 36).
  resolved_by_ruralroute: 'Resolved by RuralRoute',
} as const;
/** Every reason a cancelled booking can show (the database's CHECK, the detail page, the notification). */
export const ALL_CANCEL_REASONS = { ...CANCEL_REASONS, ...SYSTEM_CANCEL_REASONS } as const;
/** What a person may choose in 'Cancel booking'. */
export type CancelReason = keyof typeof CANCEL_REASONS;
/** What a cancelled booking may carry. */
export const cancelReasonSchema = z.enum(Object.keys(ALL_CANCEL_REASONS) as [keyof typeof ALL_CANCEL_REASONS]);
export type AnyCancelReason = z.infer<typeof cancelReasonSchema>;

export const CANCEL_DETAILS_MAX = 500;
export const CANCEL_REASON_MESSAGE = 'Please choose a reason';
export const CANCEL_DETAILS_MESSAGE = 'Details must be less than 500 characters';

export const cancelBookingSchema = z.object({
  reason: z
    .string({ error: CANCEL_REASON_MESSAGE })
    .refine((v): v is CancelReason => Object.hasOwn(CANCEL_REASONS, v), CANCEL_REASON_MESSAGE),
  details: z
    .string({ error: CANCEL_DETAILS_MESSAGE })
    .trim()
    .max(CANCEL_DETAILS_MAX, CANCEL_DETAILS_MESSAGE)
    .refine(noNul, NUL_MESSAGE)
    .nullish()
    .transform((v) => (v ? v : null)),
});
export type CancelBookingInput = z.input<typeof cancelBookingSchema>;

export const DELIVERY_CODE_MESSAGE = 'Enter the 6-digit delivery code';
/** 'Complete delivery': the code the requester reads out; the optional photo travels as multipart `photo`. */
export const completeBookingSchema = z.object({
  code: z
    .string({ error: DELIVERY_CODE_MESSAGE })
    .trim()
    .regex(/^\d{6}$/, DELIVERY_CODE_MESSAGE),
});

/** Handoff photo: what the server accepts before re-encoding it. */
export const PHOTO_MAX_BYTES = 10 * 1024 * 1024;
export const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;

/** A delivery request's own fields, as every view of it shows them (lists, request page, booking page). */
export const requestFieldsSchema = z.object({
  id: z.string().uuid(),
  title: z.string(),
  description: z.string(),
  pickup_location: z.string(),
  delivery_location: z.string(),
  needed_by_date: z.string().nullable(),
  /** Decimal string with 2 places ("12.50"), or null. */
  compensation: z.string().nullable(),
  status: requestStatusSchema,
});

export const bookingEventSchema = z.object({
  id: z.string(),
  type: bookingEventTypeSchema,
  at: z.string(),
  /** Who acted; null for the system (e.g. declined because another offer was chosen). */
  actor: personSchema.extend({ role: bookingRoleSchema }).nullable(),
  reason: cancelReasonSchema.nullable(),
  details: z.string().nullable(),
});
export type BookingEvent = z.infer<typeof bookingEventSchema>;

/** `GET /api/bookings/:id`: the same page for both people; only they may read it (anyone else 404). */
export const bookingDetailSchema = z.object({
  id: z.string().uuid(),
  status: bookingStatusSchema,
  created_at: z.string(),
  my_role: bookingRoleSchema,
  request: requestFieldsSchema,
  driver: shownPersonSchema,
  requester: shownPersonSchema,
  /** Oldest first. */
  events: z.array(bookingEventSchema),
  /** The actions the viewer may take now; the server refuses any other. */
  actions: z.array(bookingActionSchema),
  picked_up_at: z.string().nullable(),
  /** Only for the requester while confirmed; never sent to the driver. */
  delivery_code: z.string().nullable(),
  has_photo: z.boolean(),
  /** For the requester while the offer is pending on a request with compensation: what choosing it costs. */
  payment_quote: paymentQuoteSchema.nullable(),
  /** The payment, once one is held for this booking (docs/payments.md); null for an unpaid booking. */
  payment: bookingPaymentSchema.nullable(),
  /** The booking's latest dispute ('Report a problem', issue 36), or null. */
  dispute: disputeViewSchema.nullable(),
  /** The viewer may report a problem now (a paid booking, from pickup until 48 hours after completion). */
  can_report_problem: z.boolean(),
  /** The Delivery Guarantee's cap a claim by the viewer would have now ($50; $250 on Plus or Community). */
  guarantee_cap_cents: z.number().int().optional(),
  /** Set when the booking was cancelled: who, and why. */
  cancellation: z
    .object({
      /** Null when RuralRoute cancelled it (a moderator refunded the requester on a dispute). */
      by: personSchema.extend({ role: bookingRoleSchema }).nullable(),
      reason: cancelReasonSchema,
      details: z.string().nullable(),
    })
    .nullable(),
});
export type BookingDetail = z.infer<typeof bookingDetailSchema>;

/** One pending offer on a request (request detail page, 'Offers'). */
export const offerSchema = z.object({
  booking_id: z.string().uuid(),
  driver: shownPersonSchema,
  /** The driver's record, so the requester sees it before choosing. */
  driver_rating: ratingSummarySchema,
  offered_at: z.string(),
});
export type Offer = z.infer<typeof offerSchema>;

/** `GET /api/requests/:id`: the owner's view of one request; anyone else 404. */
export const requestDetailSchema = requestFieldsSchema.extend({
  created_at: z.string(),
  /** Pending offers, oldest first. */
  offers: z.array(offerSchema),
  /** The confirmed or completed booking, when there is one. */
  booking: z
    .object({ id: z.string().uuid(), status: z.enum(['confirmed', 'completed']), driver: shownPersonSchema })
    .nullable(),
  /** What choosing a driver costs, for a request with compensation (docs/payments.md); null without. */
  payment_quote: paymentQuoteSchema.nullable(),
});
export type RequestDetail = z.infer<typeof requestDetailSchema>;

/** My Bookings tabs: `GET /api/bookings/mine?role=driver|requester` (default driver). */
export const bookingListRoleQuerySchema = z.object({ role: bookingRoleSchema.default('driver') });

/**
 * The lifecycle's stable refusals and their texts (toast title / description). HTTP statuses are the server's
 * business (one table in src/server/http).
 */
export const LIFECYCLE_ERRORS = {
  /** The booking is no longer in the state the action needs (someone else acted first, or it never was). */
  booking_state_changed: {
    title: 'Error',
    message: 'This booking has changed. Reload the page to see where it stands.',
  },
  wrong_delivery_code: { title: 'Error', message: 'That delivery code is not correct.' },
  delivery_code_locked: {
    title: 'Error',
    message: 'Too many attempts. Ask the requester to mark the delivery as received.',
  },
  confirmed_booking_exists: {
    title: 'Error',
    message: 'Cancel the confirmed booking before deleting this request.',
  },
  invalid_image: {
    title: 'Error',
    message: 'That file is not a supported image (JPEG, PNG or WebP up to 10 MB).',
  },
} as const;
export type LifecycleErrorCode = keyof typeof LIFECYCLE_ERRORS;

/** Toasts on success, per action. */
export const ACTION_TOASTS: Record<BookingAction, string> = {
  choose: 'Driver confirmed',
  decline: 'Offer declined',
  withdraw: 'Offer withdrawn',
  cancel: 'Booking cancelled',
  pickup: 'Marked as picked up',
  complete: 'Delivery completed',
  receive: 'Delivery completed',
};

/** Wrong delivery codes allowed per booking before a 15-minute pause. */
export const DELIVERY_CODE_MAX_ATTEMPTS = 5;
export const DELIVERY_CODE_LOCK_MINUTES = 15;
