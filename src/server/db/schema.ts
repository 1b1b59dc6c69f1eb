import { sql } from 'drizzle-orm';
import { check, date, index, integer, pgTable, text, time, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { CONTACT_LIMITS } from '../../shared/contact';
import { LIMITS } from '../../shared/limits';
import { COMPENSATION_MAX_CENTS } from '../../shared/money';
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
  },
  (t) => [
    uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`),
    check('users_email_length', sql`char_length(${t.email}) between 3 and ${sql.raw(String(LIMITS.emailMax))}`),
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
  },
  (t) => [
    check(
      'profiles_full_name_length',
      sql`char_length(${t.fullName}) between 1 and ${sql.raw(String(LIMITS.fullNameMax))}`,
    ),
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
  },
  (t) => [index('sessions_user_id_idx').on(t.userId), check('sessions_aal_check', sql`${t.aal} in ('aal1', 'aal2')`)],
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
  },
  (t) => [
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
  },
  (t) => [
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
    status: text('status').notNull().default('pending'),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
  },
  (t) => [
    // One accept per driver and request: a second insert fails with 23505 -> 'already_accepted'.
    uniqueIndex('bookings_request_driver_key').on(t.requestId, t.driverId),
    // My Bookings, newest first.
    index('bookings_driver_created_idx').on(t.driverId, t.createdAt, t.id),
    check('bookings_status_check', oneOf(t.status, BOOKING_STATUSES)),
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
