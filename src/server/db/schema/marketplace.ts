import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  doublePrecision,
  customType,
  date,
  index,
  integer,
  pgTable,
  text,
  time,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import {
  ALL_CANCEL_REASONS,
  bookingEventTypeSchema,
  CANCEL_DETAILS_MAX,
  PHOTO_MAX_BYTES,
} from '../../../shared/lifecycle';
import { LIMITS } from '../../../shared/limits';
import { COMPENSATION_MAX_CENTS } from '../../../shared/money';
import { BOOKING_STATUSES, REQUEST_STATUSES, RIDE_STATUSES } from '../../../shared/statuses';
import { lengthBetween, lengthAtMost, oneOf } from './checks';
import { users } from './accounts';
import { places } from './places';

// Marketplace: rides, delivery requests, bookings, their events and handoff photos.
// Timestamps keep millisecond precision so a JS Date round-trips them exactly (keyset cursors depend on it).
// Every limit of spec sections 5 and 9 is repeated here as a CHECK, so no writer can store what the API refuses.
// Newest-first lists use ascending indexes scanned backwards (ORDER BY ... DESC matches their NULLS order).

/**
 * Rides without a time sort after the timed rides of the same day: time '24:00' is a valid PostgreSQL time that
 * is later than any real one, and a plain expression keeps the keyset comparison indexable.
 */
export const rideTimeKey = (t: { departureTime: unknown }) => sql`coalesce(${t.departureTime}, time '24:00')`;

/**
 * Priority listing (issue 38): within a day, a Plus or Community member's rides come first. Browse Rides sorts
 * ascending, so the key is `not priority` (false, i.e. priority, sorts first): one direction for every key keeps the
 * keyset comparison a single row comparison that the index can range-scan.
 */
export const ridePriorityKey = (t: { priority: unknown }) => sql`(not ${t.priority})`;

/**
 * Priority listing (issue 38): Browse Requests groups requests by the hour (UTC) they were posted in, newest hour
 * first. `timezone('UTC', timestamptz)` and `date_trunc` of a plain timestamp are IMMUTABLE, so it can be indexed.
 */
export const requestHourKey = (t: { createdAt: unknown }) => sql`date_trunc('hour', ${t.createdAt} at time zone 'UTC')`;

/**
 * The poster had a paid plan (profiles.plan is not null): copied by a BEFORE INSERT trigger and kept by a trigger on
 * profiles.plan (migration 0038), so Browse sorts on the listing's own row and index. Never written by the app.
 */
const priorityColumn = () => boolean('priority').notNull().default(false);

/** A location's chosen place and its coordinates: all three set, or none (free text). */
export function placeColumns<P extends string>(prefix: P) {
  const snake = prefix.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  return {
    [`${prefix}PlaceId`]: integer(`${snake}_place_id`).references(() => places.id),
    [`${prefix}Lat`]: doublePrecision(`${snake}_lat`),
    [`${prefix}Lon`]: doublePrecision(`${snake}_lon`),
  } as {
    [K in `${P}PlaceId`]: ReturnType<typeof integer>;
  } & { [K in `${P}Lat` | `${P}Lon`]: ReturnType<typeof doublePrecision> };
}

export const rides = pgTable(
  'rides',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    origin: text('origin').notNull(),
    destination: text('destination').notNull(),
    departureDate: date('departure_date').notNull(),
    departureTime: time('departure_time'),
    availableSpace: text('available_space'),
    notes: text('notes'),
    status: text('status').notNull().default('active'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    priority: priorityColumn(),
    /** The chosen suggestion of each end (null for free text), its coordinates copied for the queries. */
    ...placeColumns('origin'),
    ...placeColumns('destination'),
    /** Browse 'Search': the route and notes folded by rr_search() (migration 0015), stored so no row is re-folded. */
    searchText: text('search_text').generatedAlwaysAs(
      sql`rr_search(origin || ' ' || destination || ' ' || coalesce(notes, ''))`,
    ),
  },
  (t) => [
    // Browse 'Search': each word is a LIKE '%word%' on the trigrams of active rides.
    index('rides_active_search_idx')
      .using('gin', t.searchText.op('gin_trgm_ops'))
      .where(sql`${t.status} = 'active'`),
    // Browse 'Near': active rides by either end's latitude (a box narrows longitude in the index too). Migration
    // 0017 makes both INCLUDE (departure_date, user_id, id), which drizzle cannot declare: a 'Near' branch reads
    // the index only (docs/places.md).
    index('rides_active_origin_point_idx')
      .on(t.originLat, t.originLon)
      .where(sql`${t.status} = 'active' and ${t.originLat} is not null`),
    index('rides_active_destination_point_idx')
      .on(t.destinationLat, t.destinationLon)
      .where(sql`${t.status} = 'active' and ${t.destinationLat} is not null`),
    // My Rides: departure date, then time, then id, for one user.
    index('rides_user_departure_idx').on(t.userId, t.departureDate, rideTimeKey(t), t.id),
    // Browse: active rides only, by day, then priority listings first (issue 38), then time and id.
    index('rides_active_departure_idx')
      .on(t.departureDate, ridePriorityKey(t), rideTimeKey(t), t.id)
      .where(sql`${t.status} = 'active'`),
    check('rides_origin_length', lengthBetween(t.origin, LIMITS.locationMax)),
    check('rides_destination_length', lengthBetween(t.destination, LIMITS.locationMax)),
    check('rides_available_space_length', lengthAtMost(t.availableSpace, LIMITS.availableSpaceMax)),
    check('rides_notes_length', lengthAtMost(t.notes, LIMITS.notesMax)),
    check('rides_status_check', oneOf(t.status, RIDE_STATUSES)),
  ],
);

export const deliveryRequests = pgTable(
  'delivery_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description').notNull(),
    pickupLocation: text('pickup_location').notNull(),
    deliveryLocation: text('delivery_location').notNull(),
    neededByDate: date('needed_by_date'),
    /** Money as integer cents, never a float. */
    compensationCents: integer('compensation_cents'),
    status: text('status').notNull().default('open'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    priority: priorityColumn(),
    /** The chosen suggestion of each end (null for free text), its coordinates copied for the queries. */
    ...placeColumns('pickup'),
    ...placeColumns('delivery'),
    /** Browse 'Search': title, description and locations folded by rr_search() (migration 0015), stored. */
    searchText: text('search_text').generatedAlwaysAs(
      sql`rr_search(title || ' ' || description || ' ' || pickup_location || ' ' || delivery_location)`,
    ),
  },
  (t) => [
    // Browse 'Search': each word is a LIKE '%word%' on the trigrams of open requests.
    index('delivery_requests_open_search_idx')
      .using('gin', t.searchText.op('gin_trgm_ops'))
      .where(sql`${t.status} = 'open'`),
    // Along the route and Browse 'Near': open requests by pickup (and delivery) position. Migration 0017 makes
    // them INCLUDE what those queries test before cutting a page, which drizzle cannot declare: the pickup index
    // (delivery_lat, delivery_lon, needed_by_date, user_id, id), the delivery index (needed_by_date, user_id, id),
    // so candidates are read from the index only (docs/places.md, docs/along-route.md).
    index('delivery_requests_open_pickup_point_idx')
      .on(t.pickupLat, t.pickupLon)
      .where(sql`${t.status} = 'open' and ${t.pickupLat} is not null`),
    index('delivery_requests_open_delivery_point_idx')
      .on(t.deliveryLat, t.deliveryLon)
      .where(sql`${t.status} = 'open' and ${t.deliveryLat} is not null`),
    // My Requests (newest first); deleted ones are filtered out of the range.
    index('delivery_requests_user_created_idx').on(t.userId, t.createdAt, t.id),
    // Browse: open requests only, newest hour first, priority listings first within it (issue 38), then newest
    // first: scanned backwards.
    index('delivery_requests_open_created_idx')
      .on(requestHourKey(t), t.priority, t.createdAt, t.id)
      .where(sql`${t.status} = 'open'`),
    check('delivery_requests_title_length', lengthBetween(t.title, LIMITS.titleMax)),
    check('delivery_requests_description_length', lengthBetween(t.description, LIMITS.descriptionMax)),
    check('delivery_requests_pickup_length', lengthBetween(t.pickupLocation, LIMITS.locationMax)),
    check('delivery_requests_delivery_length', lengthBetween(t.deliveryLocation, LIMITS.locationMax)),
    check(
      'delivery_requests_compensation_range',
      sql`${t.compensationCents} between 0 and ${sql.raw(String(COMPENSATION_MAX_CENTS))}`,
    ),
    check('delivery_requests_status_check', oneOf(t.status, REQUEST_STATUSES)),
  ],
);

/** Bookings a driver still holds on a request: an offer, the chosen one, or the delivered one. */
export const LIVE_BOOKING_STATUSES = ['pending', 'confirmed', 'completed'] as const;

export const bookings = pgTable(
  'bookings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    requestId: uuid('request_id')
      .notNull()
      .references(() => deliveryRequests.id, { onDelete: 'cascade' }),
    driverId: uuid('driver_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /**
     * The request's owner, copied when the driver offers (a request never changes hands), so 'As requester' and
     * the dashboard read one index instead of joining every booking to its request.
     */
    requesterId: uuid('requester_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status').notNull().default('pending'),
    /** The 6-digit handoff code: set when the booking is confirmed, cleared when it leaves 'confirmed'. */
    deliveryCode: text('delivery_code'),
    pickedUpAt: timestamp('picked_up_at', { withTimezone: true, precision: 3 }),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    /**
     * When the booking reached completed, declined or cancelled (set by the move that ended it). Its conversation
     * stays open for CONVERSATION_OPEN_DAYS after this, then is read-only.
     */
    endedAt: timestamp('ended_at', { withTimezone: true, precision: 3 }),
    // The conversation (src/shared/messages.ts): the latest message's time, each person's read mark (the time of
    // the latest message they have seen), and the time the conversation list sorts by (the latest message, or
    // the offer when there is none yet).
    lastMessageAt: timestamp('last_message_at', { withTimezone: true, precision: 3 }),
    driverReadAt: timestamp('driver_read_at', { withTimezone: true, precision: 3 }),
    requesterReadAt: timestamp('requester_read_at', { withTimezone: true, precision: 3 }),
    activityAt: timestamp('activity_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    /**
     * The open dispute holding this booking's money (issue 36, decision 032): while set, complete, receive and cancel
     * find no row to move (their guarded updates require it empty), so a report and a completion have one winner.
     */
    onHoldDisputeId: uuid('on_hold_dispute_id'),
    /**
     * An open card dispute (chargeback) holding this booking's money (issue 36): the same guard as a dispute's, so
     * nothing is completed, cancelled, released or refunded until the bank has decided.
     */
    onHoldChargebackId: uuid('on_hold_chargeback_id'),
  },
  (t) => [
    // One live booking per driver and request: a second offer fails with 23505 -> 'already_accepted'. A driver
    // whose earlier offer was declined or cancelled may offer again once the request is open again.
    uniqueIndex('bookings_request_driver_live_key')
      .on(t.requestId, t.driverId)
      .where(oneOf(t.status, LIVE_BOOKING_STATUSES)),
    // At most one chosen driver per request, whatever the code does: the last guard of 'choose'.
    uniqueIndex('bookings_request_chosen_key')
      .on(t.requestId)
      .where(oneOf(t.status, ['confirmed', 'completed'])),
    // Every booking of a request, whatever its status: a request's offers, and the cascade when a request goes.
    // (The pool plans with generic plans, where a status given as a parameter cannot pick a partial index.)
    index('bookings_request_idx').on(t.requestId),
    // My Bookings, newest first: as driver, and as requester.
    index('bookings_driver_created_idx').on(t.driverId, t.createdAt, t.id),
    index('bookings_requester_created_idx').on(t.requesterId, t.createdAt, t.id),
    // Messages: my conversations, most recent first, in each role.
    index('bookings_driver_activity_idx').on(t.driverId, t.activityAt, t.id),
    index('bookings_requester_activity_idx').on(t.requesterId, t.activityAt, t.id),
    check('bookings_status_check', oneOf(t.status, BOOKING_STATUSES)),
    check('bookings_delivery_code_format', sql`${t.deliveryCode} ~ '^[0-9]{6}$'`),
    check('bookings_delivery_code_while_confirmed', sql`(${t.deliveryCode} is not null) = (${t.status} = 'confirmed')`),
    check(
      'bookings_picked_up_after_confirm',
      sql`${t.pickedUpAt} is null or ${oneOf(t.status, ['confirmed', 'completed', 'cancelled'])}`,
    ),
    check('bookings_not_own_request', sql`${t.driverId} <> ${t.requesterId}`),
    check(
      'bookings_ended_when_final',
      sql`(${t.endedAt} is not null) = (${oneOf(t.status, ['completed', 'declined', 'cancelled'])})`,
    ),
  ],
);

/**
 * Every step of every booking, appended in the transaction that made it (src/server/bookings/lifecycle.ts): the
 * timeline, Recent Activity and later notifications read history here and nowhere else. The booking's two
 * people are copied onto each row so 'my latest events' is one index range per role.
 */
export const bookingEvents = pgTable(
  'booking_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    bookingId: uuid('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    driverId: uuid('driver_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    requesterId: uuid('requester_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Who acted; null when the system did (another offer was chosen). */
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    type: text('type').notNull(),
    /** Null for 'offered' (the booking did not exist before). */
    fromStatus: text('from_status'),
    toStatus: text('to_status').notNull(),
    reason: text('reason'),
    details: text('details'),
    // The statement's clock, not the transaction's start: a step that waited on a lock sorts after the one it waited for.
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 })
      .notNull()
      .default(sql`clock_timestamp()`),
  },
  (t) => [
    index('booking_events_booking_idx').on(t.bookingId, t.createdAt, t.id),
    // Recent Activity (dashboard/service.ts): the steps each person sees, newest first. Offers are shown from
    // the bookings themselves; the requester is not told once per declined offer what they did once.
    index('booking_events_driver_activity_idx')
      .on(t.driverId, t.createdAt, t.id)
      .where(sql`${t.type} <> 'offered'`),
    index('booking_events_requester_activity_idx')
      .on(t.requesterId, t.createdAt, t.id)
      .where(sql`${t.type} not in ('offered', 'other_chosen', 'request_withdrawn')`),
    check('booking_events_type_check', oneOf(t.type, bookingEventTypeSchema.options)),
    check('booking_events_from_check', oneOf(t.fromStatus, BOOKING_STATUSES)),
    check('booking_events_to_check', oneOf(t.toStatus, BOOKING_STATUSES)),
    check('booking_events_reason_check', oneOf(t.reason, Object.keys(ALL_CANCEL_REASONS))),
    check('booking_events_reason_when_cancelled', sql`(${t.type} = 'cancelled') = (${t.reason} is not null)`),
    check('booking_events_details_length', lengthAtMost(t.details, CANCEL_DETAILS_MAX)),
    check('booking_events_details_with_reason', sql`${t.details} is null or ${t.reason} is not null`),
  ],
);

export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  // node-postgres answers a Buffer, PGlite a Uint8Array.
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/** Longest side of a stored handoff photo, in pixels (bookings/photo.ts re-encodes to fit). */
export const PHOTO_MAX_SIDE = 1600;

/**
 * The optional handoff photo, re-encoded to WebP without metadata. In the database, so every instance serves it
 * and it goes with the booking's backups and deletion.
 */
export const bookingPhotos = pgTable(
  'booking_photos',
  {
    bookingId: uuid('booking_id')
      .primaryKey()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    image: bytea('image').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    check('booking_photos_size', sql`octet_length(${t.image}) between 1 and ${sql.raw(String(PHOTO_MAX_BYTES))}`),
    check('booking_photos_width', sql`${t.width} between 1 and ${sql.raw(String(PHOTO_MAX_SIDE))}`),
    check('booking_photos_height', sql`${t.height} between 1 and ${sql.raw(String(PHOTO_MAX_SIDE))}`),
  ],
);
