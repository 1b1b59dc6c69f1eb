import { and, sql, type SQL } from 'drizzle-orm';
import { unionAll, type PgColumn, type PgTable } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import type { Db } from '../db/client';
import { blocks, profiles, users } from '../db/schema';
import { boxAround, inBox, milesBetween, type Point } from './geo';

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
 * 'Verified members only' (issue 37): the owner has the 'Verified' badge. The few verified people are one hashed set
 * (read once per query), as visibleTo's sets are; nothing when the filter is off.
 */
export const verifiedOwner = (owner: unknown, on: '1' | undefined) =>
  on ? sql`${owner} in (select ${profiles.userId} from ${profiles} where ${profiles.verified})` : undefined;

/**
 * Not a suspended owner's, nor anyone's blocked either way with the viewer: three small sets, each read once per
 * query (the partial index of suspended accounts, the viewer's blocks both ways) and hashed, rather than a users
 * probe and two blocks probes per row. For queries that test many rows before cutting a page ('Near', along the
 * route), where `owner` comes from an index's INCLUDE columns.
 */
export const visibleTo = (viewerId: unknown, owner: unknown) =>
  sql`${owner} not in (select ${users.id} from ${users} where ${users.suspendedAt} is not null)
    and ${owner} not in (select ${blocks.blockedId} from ${blocks} where ${blocks.blockerId} = ${viewerId})
    and ${owner} not in (select ${blocks.blockerId} from ${blocks} where ${blocks.blockedId} = ${viewerId})`;

/**
 * 'Near' for a listing with two ends (origin and destination, pickup and delivery), cut to one page: the ids and
 * distances of the first `limit` rows of `table` matching `filter` with either end (or one of its `via` points: a
 * ride's stops) within `miles` of `center`, nearest first (the nearest point's distance; a point without coordinates
 * is none), then by id, after `key`.
 *
 * One branch per end, each the box's range of that end's partial (lat, lon) index, UNION ALL, then the nearer
 * distance per id, kept when within `miles`: an end outside its box is farther than `miles`, so the smallest
 * distance among the ends in their boxes is the listing's whenever it is within the radius, and each haversine is
 * computed once. Two index ranges rather than a BitmapOr of both, because migration 0017 made the indexes INCLUDE
 * what `filter` tests (dates, owner, id), so a branch without 'Search' reads no table row. The page
 * is cut here, so the caller reads, joins and checks only `limit` rows (docs/places.md). Drizzle names a
 * subquery's fields without their alias, hence names no joined table has.
 */
export function nearestPage(
  db: Db,
  table: PgTable,
  id: PgColumn,
  ends: [Point<PgColumn>, Point<PgColumn>],
  center: Point,
  miles: number,
  filter: SQL | undefined,
  key: readonly [string, string] | null | undefined,
  limit: number,
  /** Points of the listing's own besides its ends (a ride's stops): their table, its listing id and point columns. */
  via?: { table: PgTable; listing: PgColumn; point: Point<PgColumn> },
) {
  const box = boxAround(center, miles);
  const fields = (listing: PgColumn, end: Point<PgColumn>) => ({
    id: sql<string>`${listing}`.as('near_id'),
    distance: sql<number>`${milesBetween(end.lat, end.lon, center)}`.as('near_miles'),
  });
  const branch = (end: Point<PgColumn>) =>
    db
      .select(fields(id, end))
      .from(table)
      .where(and(filter, inBox(end.lat, end.lon, box)));
  // A stop in the box, its listing checked by `filter` (few listings have stops: their table is small).
  const viaBranch = via
    ? db
        .select(fields(via.listing, via.point))
        .from(via.table)
        .innerJoin(table, sql`${id} = ${via.listing}`)
        .where(and(filter, inBox(via.point.lat, via.point.lon, box)))
    : null;
  const e = (
    viaBranch ? unionAll(branch(ends[0]), branch(ends[1]), viaBranch) : unionAll(branch(ends[0]), branch(ends[1]))
  ).as('e');
  const near = db
    .select({ id: e.id, distance: sql<number>`min(${e.distance})`.as('near_miles') })
    .from(e)
    .groupBy(e.id)
    .having(sql`min(${e.distance}) <= ${miles}::float8`)
    .as('near');
  return db
    .select({ id: near.id, distance: near.distance })
    .from(near)
    .where(key ? sql`(${near.distance}, ${near.id}) > (${key[0]}::float8, ${key[1]}::uuid)` : undefined)
    .orderBy(near.distance, near.id)
    .limit(limit)
    .as('page');
}

/** Miles as a card shows them: a tenth is plenty (the client rounds further). */
export const roundMiles = (miles: number) => Math.round(miles * 10) / 10;

/** A location's point in a response: its place and coordinates are stored together, or not at all (free text). */
export const pointOf = (placeId: number | null, lat: number | null, lon: number | null) =>
  placeId === null || lat === null || lon === null ? null : { place_id: placeId, lat, lon };
