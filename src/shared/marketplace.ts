import { z } from 'zod';
import { earliestToday, isValidIsoDate } from './dates';
import { LIMITS } from './limits';
import { COMPENSATION_MAX_CENTS, toCents } from './money';
import { bookingEventTypeSchema, bookingRoleSchema, requestFieldsSchema } from './lifecycle';
import { browseFiltersSchema, optionalPlaceId, pointSchema } from './places';
import { MAX_RIDE_STOPS, STOPS_TEXT } from './plans';
import { bookingStatusSchema, rideStatusSchema } from './statuses';
import { ratingSummarySchema } from './rating';
import { NUL_MESSAGE, noNul } from './text';

export { NUL_MESSAGE };

/**
 * Marketplace contracts (spec sections 3, 5, 7), shared by the forms and the routes. Key order is the order in
 * which the first failing message is reported ('Validation Error' toast / 400 message).
 */

/** Spec fallbacks (section 5) for a body that is not even an object. */
export const INPUT_FALLBACK_MESSAGE = 'Please check your input';
export const BOOKING_FALLBACK_MESSAGE = 'Invalid booking data';

/** PostgreSQL text cannot hold U+0000; refusing it here keeps such input a clear 400 instead of a failed insert. */
const requiredText = (max: number, required: string, tooLong: string) =>
  z.string({ error: required }).trim().min(1, required).max(max, tooLong).refine(noNul, NUL_MESSAGE);

/** '' and null become null (spec: optional fields are stored as null when empty). */
const optionalText = (max: number, tooLong: string) =>
  z
    .string({ error: tooLong })
    .trim()
    .max(max, tooLong)
    .refine(noNul, NUL_MESSAGE)
    .nullish()
    .transform((v) => (v ? v : null));

/** A calendar date that is not in the past. `today` is injected: the browser's date in forms, UTC-12 on the server. */
const futureDate = (required: string, past: string, today: () => string) =>
  z
    .string({ error: required })
    .trim()
    .min(1, required)
    .refine(isValidIsoDate, 'Please enter a valid date')
    .refine((v) => v >= today(), past);

/** A stop between a ride's ends (Plus and Community): its words and, when a suggestion was chosen, its place. */
export const rideStopInputSchema = z.object(
  {
    label: requiredText(LIMITS.locationMax, STOPS_TEXT.required, STOPS_TEXT.tooLong),
    place_id: optionalPlaceId,
  },
  { error: STOPS_TEXT.required },
);
export type RideStopInput = z.input<typeof rideStopInputSchema>;

/** A ride's stops in order from the origin, at most MAX_RIDE_STOPS; left out or null: none. */
export const rideStopsSchema = z
  .array(rideStopInputSchema, { error: STOPS_TEXT.tooMany })
  .max(MAX_RIDE_STOPS, STOPS_TEXT.tooMany)
  .nullish()
  .transform((v) => v ?? []);

/** `PUT /rides/:id/stops`: the ride's new stops, replacing the old ones ([] removes them). */
export const rideStopsInputSchema = z.object({ stops: rideStopsSchema });

export function rideInputSchema(today: () => string = earliestToday) {
  return z.object({
    origin: requiredText(LIMITS.locationMax, 'Origin is required', 'Origin must be less than 500 characters'),
    destination: requiredText(
      LIMITS.locationMax,
      'Destination is required',
      'Destination must be less than 500 characters',
    ),
    departure_date: futureDate('Departure date is required', 'Departure date cannot be in the past', today),
    departure_time: z
      .string({ error: 'Please enter a valid time' })
      .trim()
      .regex(/^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$|^$/, 'Please enter a valid time')
      .nullish()
      .transform((v) => (v ? v.slice(0, 5) : null)),
    available_space: optionalText(LIMITS.availableSpaceMax, 'Available space must be less than 200 characters'),
    notes: optionalText(LIMITS.notesMax, 'Notes must be less than 1000 characters'),
    /** The chosen suggestions: with them the ride can be matched by distance. */
    origin_place_id: optionalPlaceId,
    destination_place_id: optionalPlaceId,
    /** Plus and Community: up to MAX_RIDE_STOPS stops between origin and destination, in order. */
    stops: rideStopsSchema,
  });
}
export type RideInput = z.input<ReturnType<typeof rideInputSchema>>;

const compensationSchema = z
  .union([z.string(), z.number()], { error: 'Compensation must be an amount like 12.50' })
  .nullish()
  .transform((v, ctx) => {
    if (v === null || v === undefined) return null;
    const text = typeof v === 'number' ? (Number.isFinite(v) ? String(v) : 'invalid') : v.trim().replace(/^\$/, '');
    if (text === '') return null;
    // Any number of whole digits here, so that 250000 is told the range rather than the format.
    if (!/^\d+(\.\d{1,2})?$/.test(text)) {
      ctx.addIssue({
        code: 'custom',
        message: 'Compensation must be an amount like 12.50, with at most 2 decimal places',
      });
      return z.NEVER;
    }
    if (toCents(text) > COMPENSATION_MAX_CENTS) {
      ctx.addIssue({ code: 'custom', message: 'Compensation must be between 0 and 10,000' });
      return z.NEVER;
    }
    return text;
  });

export function requestInputSchema(today: () => string = earliestToday) {
  return z.object({
    title: requiredText(LIMITS.titleMax, 'Title is required', 'Title must be less than 200 characters'),
    description: requiredText(
      LIMITS.descriptionMax,
      'Description is required',
      'Description must be less than 2000 characters',
    ),
    pickup_location: requiredText(
      LIMITS.locationMax,
      'Pickup location is required',
      'Pickup location must be less than 500 characters',
    ),
    delivery_location: requiredText(
      LIMITS.locationMax,
      'Delivery location is required',
      'Delivery location must be less than 500 characters',
    ),
    needed_by_date: z
      .union([futureDate('Needed-by date is required', 'Needed-by date cannot be in the past', today), z.literal('')])
      .nullish()
      .transform((v) => (v ? v : null)),
    compensation: compensationSchema,
    /** The chosen suggestions: with them the request can be matched by distance. */
    pickup_place_id: optionalPlaceId,
    delivery_place_id: optionalPlaceId,
  });
}
export type RequestInput = z.input<ReturnType<typeof requestInputSchema>>;

/** Accept: only the request id is taken from the body; the driver is the session's user, the status 'pending'. */
export const acceptRequestSchema = z.object({
  request_id: z.string({ error: 'Invalid request ID' }).uuid('Invalid request ID'),
});

export const idParamSchema = z.object({ id: z.string().uuid('Not found') });

export const INVALID_CURSOR_MESSAGE = 'The page cursor is invalid. Reload the list to start again.';
const LIMIT_MESSAGE = 'Limit must be a whole number from 1 to 50';

export const pageQuerySchema = z.object({
  // A repeated ?cursor= arrives as an array: still the cursor message, not zod's type message.
  cursor: z.string({ error: INVALID_CURSOR_MESSAGE }).max(200, INVALID_CURSOR_MESSAGE).optional(),
  limit: z.coerce
    .number({ error: LIMIT_MESSAGE })
    .int(LIMIT_MESSAGE)
    .min(1, LIMIT_MESSAGE)
    .max(50, LIMIT_MESSAGE)
    .default(20),
});

/** Browse Requests and Browse Rides: the filters (src/shared/places.ts) with the page's cursor and size. */
export const browseQuerySchema = browseFiltersSchema.safeExtend(pageQuerySchema.shape);
export type BrowseQuery = z.output<typeof browseQuerySchema>;

export const rideStopSchema = z.object({ label: z.string(), point: pointSchema });
export type RideStop = z.infer<typeof rideStopSchema>;

export const rideSchema = z.object({
  id: z.string().uuid(),
  origin: z.string(),
  destination: z.string(),
  departure_date: z.string(),
  departure_time: z.string().nullable(),
  available_space: z.string().nullable(),
  notes: z.string().nullable(),
  status: rideStatusSchema,
  created_at: z.string(),
  /** The poster's full name (browse lists). */
  poster_name: z.string(),
  /** The poster: their profile link and rating on the card. */
  poster_id: z.string().uuid(),
  poster_rating: ratingSummarySchema,
  /** The poster has the 'Verified' badge (email, phone and ID checked). */
  poster_verified: z.boolean(),
  /**
   * The poster is a Community member: the 'Ambassador' badge beside the name (issue 38). Absent from older answers:
   * false.
   */
  poster_ambassador: z.boolean().default(false),
  /**
   * A priority listing (issue 38): the poster is a Plus or Community member, so Browse lists it first within its day
   * and its card shows 'Priority'. Absent from older answers: false.
   */
  priority: z.boolean().default(false),
  is_own: z.boolean(),
  /** Each end's chosen place and coordinates; null when typed as free text. */
  origin_point: pointSchema,
  destination_point: pointSchema,
  /**
   * The stops between origin and destination, in order (Plus and Community; a ride keeps them when its driver
   * returns to Free). Each with its chosen place, or null for free text. Absent from older answers: none.
   */
  stops: z.array(rideStopSchema).default([]),
  /** Browse with 'Near' only: miles from that place to the ride's nearest point: an end or a stop (distanceText words it). */
  distance_miles: z.number().optional(),
});
export type Ride = z.infer<typeof rideSchema>;

export const deliveryRequestSchema = requestFieldsSchema.extend({
  created_at: z.string(),
  requester_name: z.string(),
  /** The requester: their profile link and rating on the card. */
  requester_id: z.string().uuid(),
  requester_rating: ratingSummarySchema,
  /** The requester has the 'Verified' badge (email, phone and ID checked). */
  requester_verified: z.boolean(),
  /**
   * The requester is a Community member: the 'Ambassador' badge beside the name (issue 38). Absent from older
   * answers: false.
   */
  requester_ambassador: z.boolean().default(false),
  /**
   * A priority listing (issue 38): the requester is a Plus or Community member, so Browse lists it first within its
   * hour of posting and its card shows 'Priority'. Absent from older answers: false.
   */
  priority: z.boolean().default(false),
  is_own: z.boolean(),
  /** The viewer has already accepted it (browse): the card shows a disabled 'Offer sent' instead of Accept. */
  accepted_by_me: z.boolean(),
  /** Pending offers on it: only in the owner's list (My Requests: '1 offer', '3 offers'). */
  offer_count: z.number().int().optional(),
  /** Each end's chosen place and coordinates; null when typed as free text. */
  pickup_point: pointSchema,
  delivery_point: pointSchema,
  /** Browse with 'Near' only: miles from that place to the nearer end (distanceText words it). */
  distance_miles: z.number().optional(),
});
export type DeliveryRequest = z.infer<typeof deliveryRequestSchema>;

export const bookingSchema = z.object({
  id: z.string().uuid(),
  request_id: z.string().uuid().nullable(),
  status: bookingStatusSchema,
  created_at: z.string(),
  /** The driver's full name (the 'As requester' tab shows who offered). */
  driver_name: z.string(),
  request: z.object({
    title: z.string(),
    pickup_location: z.string(),
    delivery_location: z.string(),
    requester_name: z.string(),
  }),
});
export type Booking = z.infer<typeof bookingSchema>;

export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), next_cursor: z.string().nullable() });
}
export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

/** One event of Recent Activity: what happened, as data; the client puts it into words. */
const activityEvent = <T extends string, F extends z.ZodRawShape>(type: T, fields: F) =>
  z.object({ id: z.string(), type: z.literal(type), at: z.string(), ...fields });
const activitySchema = z.discriminatedUnion('type', [
  activityEvent('ride_posted', { origin: z.string(), destination: z.string() }),
  activityEvent('request_created', { title: z.string() }),
  /** Someone accepted my request. */
  activityEvent('request_accepted', { title: z.string(), driver_name: z.string() }),
  /** I accepted someone's request. */
  activityEvent('booking_made', { title: z.string(), requester_name: z.string() }),
  /**
   * A lifecycle step on a booking I take part in (src/shared/lifecycle.ts), e.g. 'Ana Diaz chose you to deliver
   * "Feed sacks"'. `actor_name` is null when the system acted; `mine` tells whether I acted.
   */
  activityEvent('booking_event', {
    event: bookingEventTypeSchema,
    booking_id: z.string().uuid(),
    title: z.string(),
    actor_name: z.string().nullable(),
    mine: z.boolean(),
    my_role: bookingRoleSchema,
  }),
]);
export type Activity = z.infer<typeof activitySchema>;

export const dashboardSchema = z.object({
  stats: z.object({
    /** My active rides departing today or later. */
    active_rides: z.number().int(),
    /** My open requests. */
    open_requests: z.number().int(),
    /** Bookings I take part in, as driver or as requester. */
    total_bookings: z.number().int(),
    /** Of those, as driver: tells the dashboard which My Bookings tab to open. */
    bookings_as_driver: z.number().int(),
    /** Of those, completed. */
    completed: z.number().int(),
  }),
  activity: z.array(activitySchema),
});
export type Dashboard = z.infer<typeof dashboardSchema>;

/**
 * The marketplace's stable error codes and their spec texts (toast title / description). Their HTTP status is the
 * server's business: ERROR_HTTP in src/server/http/error-status.ts.
 */
export const MARKETPLACE_ERRORS = {
  request_unavailable: { title: 'Unavailable', message: 'This request is no longer available.' },
  already_accepted: { title: 'Already accepted', message: "You've already accepted this request" },
  own_request: { title: 'Error', message: "You can't accept your own request." },
} as const;
