import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { milesBetween, withinMiles, type Point } from './geo';

/**
 * Browse filters' SQL (docs/places.md), shared by rides and requests: 'Search' words and 'Near' within a radius of
 * either end of a listing.
 */

/**
 * A distance in a keyset cursor, exactly as JavaScript prints the float8 it read (shortest round-trip form, so
 * PostgreSQL reads back the same value): plain digits, a fraction, an optional small exponent.
 */
export const cursorMiles = z.string().regex(/^\d{1,5}(\.\d{1,20})?(e-\d{1,3})?$/);

/**
 * Every word of `q` (split on white space) must occur in `document`: a listing's stored `search_text`, its text
 * folded by rr_search() (migration 0015: lower case, no accents, no punctuation), as the word is here ('Café' finds
 * 'cafe', 'coop' finds 'Co-op'). The column's trigram index answers each LIKE '%word%' for a rare word; for a
 * common one the planner rather walks the list's order and stops at a page. To choose, it must see the word: the
 * PostgreSQL pool plans every statement generically (plan_cache_mode, src/server/db/pool.ts), so each word is a
 * literal, not a parameter. It is safe as one: only letters, digits and combining marks are kept (rr_search drops
 * the rest anyway), so it holds no quote or backslash, and no LIKE wildcard.
 */
export function textMatches(document: unknown, q: string | undefined): SQL | undefined {
  const words = (q?.split(/\s+/) ?? []).map((w) => w.replace(/[^\p{L}\p{N}\p{M}]/gu, '')).filter(Boolean);
  if (!words.length) return undefined;
  return sql.join(
    words.map((w) => sql`${document} like '%' || rr_search(${sql.raw(`'${w}'`)}) || '%'`),
    sql` and `,
  );
}

/**
 * A listing with two ends (origin and destination, pickup and delivery) is near `center` when either end is within
 * `miles`; its distance is the nearer end's (an end without coordinates counts as none: least() skips nulls).
 */
export function nearEitherEnd(ends: [Point<unknown>, Point<unknown>], center: Point, miles: number) {
  const [a, b] = ends;
  return {
    where: sql`(${withinMiles(a.lat, a.lon, center, miles)} or ${withinMiles(b.lat, b.lon, center, miles)})`,
    distance: sql<number>`least(${milesBetween(a.lat, a.lon, center)}, ${milesBetween(b.lat, b.lon, center)})`,
  };
}

/** Miles as a card shows them: a tenth is plenty (the client rounds further). */
export const roundMiles = (miles: number) => Math.round(miles * 10) / 10;

/** A location's point in a response: its place and coordinates are stored together, or not at all (free text). */
export const pointOf = (placeId: number | null, lat: number | null, lon: number | null) =>
  placeId === null || lat === null || lon === null ? null : { place_id: placeId, lat, lon };
