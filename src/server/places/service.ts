import { sql, type SQL } from 'drizzle-orm';
import { PLACE_NOT_FOUND, SUGGEST_LIMIT, SUGGEST_MIN_CHARS, type Place } from '../../shared/places';
import { DomainError } from '../core/domain-error';
import type { Db } from '../db/client';
import { rowsOf } from '../db/result-rows';
import type { Point } from './geo';
import type { PlaceRow } from './load';

const toPlace = (r: PlaceRow): Place => ({ ...r, label: `${r.name}, ${r.state}` });

/** 'Springfield, IL' or 'Springfield, i': the town part and a state prefix; no comma: the town alone. */
function splitState(q: string): { name: string; state: string } {
  const m = /^(.*?),\s*([A-Za-z]{0,2})$/.exec(q);
  return m ? { name: m[1]!.trim(), state: m[2]!.toUpperCase() } : { name: q, state: '' };
}

/** The same chosen place a form sent: its id, coordinates (copied onto the ride or request) and label. */
export interface PlacePoint extends Point {
  id: number;
}

export const placeNotFound = () => new DomainError('validation_error', PLACE_NOT_FOUND);

/** A typo in the first two letters is looked for through the whole gazetteer only from this many letters on. */
const TYPO_ANYWHERE_MIN_LETTERS = 4;

/**
 * The text folded as rr_fold() folds `places.fold` (lower case, accents removed; for the towns of the gazetteer the
 * same), for a LIKE pattern, which must be a constant for the trigram index to answer it.
 */
const foldText = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

export function createPlaceService(db: Db) {
  const select = (where: SQL, order: SQL) =>
    db
      .execute(
        sql`select id, name, state, zip, lat, lon from places where ${where} order by ${order} limit ${SUGGEST_LIMIT}`,
      )
      .then((r) => rowsOf<PlaceRow>(r));

  /**
   * Suggestions for what was typed (docs/places.md): digits are ZIP codes by prefix (the ZIP shown is the lowest
   * matching one); otherwise town names whose folded form starts with the folded text, shortest first, then, to
   * fill the list from 3 letters on, the most similar names by trigrams (typos); when both found nothing, the most
   * similar names of the whole gazetteer (a typo in the first two letters). A state after a comma narrows all three.
   */
  async function suggest(raw: string): Promise<Place[]> {
    const q = raw.trim();
    if (q.length < SUGGEST_MIN_CHARS) return [];
    if (/^\d+$/.test(q)) {
      if (q.length > 5) return [];
      // Every ZIP is five digits: a prefix is a range whatever the collation, and the primary key scans it. The
      // towns are picked first (at most 8), then read by id: the plan stays a few index probes even when generic.
      const rows = await db.execute(sql`
        select p.id, p.name, p.state, m.zip, p.lat, p.lon
        from (select place_id, min(zip) as zip from place_zips
              where zip between ${q.padEnd(5, '0')} and ${q.padEnd(5, '9')}
              group by place_id order by min(zip) limit ${SUGGEST_LIMIT}) m
        join places p on p.id = m.place_id
        order by m.zip`);
      return rowsOf<PlaceRow>(rows).map(toPlace);
    }
    const { name, state } = splitState(q);
    if (name.length < SUGGEST_MIN_CHARS) return [];
    const inState = state ? sql`and state like ${`${state}%`}` : sql``;
    const folded = sql`rr_fold(${name})`;
    // `fold` is rr_fold(name), stored (migration 0015). A range on its text_pattern_ops index: names that start
    // with the folded text (chr(1114111) sorts after every character). Unlike LIKE with a parameter, a generic
    // plan can use it too.
    const prefix = await select(
      sql`fold ~>=~ ${folded} and fold ~<~ (${folded} || chr(1114111)) ${inState}`,
      sql`length(name), name, state`,
    );
    // Trigrams of one or two letters say nothing about a typo: short text is a prefix or nothing.
    if (prefix.length >= SUGGEST_LIMIT || name.length < 3) return prefix.map(toPlace);
    const seen = prefix.map((p) => p.id);
    // Typos: pg_trgm's similarity (at least its usual threshold, 0.3), best first, among the names that share the
    // first two letters (a range of the prefix index: a couple of hundred rows). A trigram index search by
    // similarity (`fold % $q`) would find typos in those letters too, but costs 25-35 ms on PGlite for common
    // trigrams: the fallback below is narrower and runs only when this finds nothing.
    const start = sql`left(${folded}, 2)`;
    const similar = await select(
      sql`fold ~>=~ ${start} and fold ~<~ (${start} || chr(1114111)) and similarity(fold, ${folded}) >= 0.3
        ${inState} ${seen.length ? sql`and id not in (${sql.join(seen, sql`, `)})` : sql``}`,
      sql`similarity(fold, ${folded}) desc, length(name), name, state`,
    );
    const text = foldText(name);
    if (prefix.length || similar.length || (text.match(/\p{L}/gu)?.length ?? 0) < TYPO_ANYWHERE_MIN_LETTERS)
      return [...prefix, ...similar].slice(0, SUGGEST_LIMIT).map(toPlace);
    // Nothing shares the first two letters: the typo may be there ('Dpringfield', 'Sringfield'). Only then, names
    // holding the rest of the text as typed ('ringfield'; the last 3 letters of a 4-letter text), by similarity:
    // `LIKE '%ringfield%'` is a trigram GIN index search that needs every trigram of the rest, so it reads few rows,
    // where `fold % $q` (any 30% of the trigrams) reads hundreds to thousands for common ones (docs/places.md).
    const rest = text.length - 2 >= 3 ? text.slice(2) : text.slice(-3);
    const anywhere = await select(
      sql`fold like ${`%${rest.replace(/[\\%_]/g, '\\$&')}%`} and similarity(fold, ${folded}) >= 0.3 ${inState}`,
      sql`similarity(fold, ${folded}) desc, length(name), name, state`,
    );
    return anywhere.map(toPlace);
  }

  /** One place by its id (a link's `near=`), or null. */
  async function byId(id: number): Promise<Place | null> {
    const [row] = await select(sql`id = ${id}`, sql`id`);
    return row ? toPlace(row) : null;
  }

  /**
   * The places behind the given ids, in one query; an id with no place is a 400 PLACE_NOT_FOUND (a form
   * can only send ids from suggestions, so this is a stale or forged one).
   */
  async function pointsOf(ids: (number | null)[]): Promise<Map<number, PlacePoint>> {
    const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
    if (!wanted.length) return new Map();
    const rows = rowsOf<PlacePoint>(
      await db.execute(sql`select id, lat, lon from places where id in (${sql.join(wanted, sql`, `)})`),
    );
    if (rows.length !== wanted.length) throw placeNotFound();
    return new Map(rows.map((r) => [r.id, r]));
  }

  return { suggest, byId, pointsOf };
}

export type PlaceService = ReturnType<typeof createPlaceService>;
