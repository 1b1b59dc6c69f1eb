import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  doublePrecision,
  index,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { SAVED_SEARCH_NAME_MAX } from '../../../shared/places';
import { lengthBetween, oneOf } from './checks';
import { users } from './accounts';
import { rides, deliveryRequests } from './marketplace';

// ─── Ask a driver, saved searches ────────────────────────────────────────────────────────────────────
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
