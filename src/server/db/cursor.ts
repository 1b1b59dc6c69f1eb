import { z } from 'zod';
import { isValidIsoDate } from '../../shared/dates';
import { INVALID_CURSOR_MESSAGE } from '../../shared/marketplace';
import { DomainError } from '../core/domain-error';

/**
 * Keyset pagination cursors: the last row's sort key and id, as base64url JSON. Opaque to clients; validated
 * strictly on the way back in, because each part is cast to a SQL type: a bad value is a validation_error (400), never a failed query (500).
 */

const invalidCursor = () => new DomainError('validation_error', INVALID_CURSOR_MESSAGE);

/**
 * The longest cursor a client can send back: every cursor this server makes is about 80 characters. The query
 * schema bounds it too; this bound holds for any caller, before any decoding work.
 */
const MAX_CURSOR_LENGTH = 200;
/** No cursor part this server makes is longer (a uuid is 36, an instant 24). */
const MAX_PART_LENGTH = 40;

/** Any uuid PostgreSQL can produce (not only RFC 4122 v4). */
export const cursorUuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
/** Years 1000-9999 only: well inside what both PostgreSQL and Date can hold, so the database never refuses one. */
export const cursorDate = z
  .string()
  .regex(/^[1-9]\d{3}-\d{2}-\d{2}$/)
  .refine(isValidIsoDate);
/** A yes/no sort key, e.g. a priority listing ('1') or not ('0'). */
export const cursorFlag = z.enum(['0', '1']);
/** A PostgreSQL time as it comes back from the driver; '24:00:00' is the sort key of rides without a time. */
export const cursorTime = z.string().regex(/^(([01]\d|2[0-3]):[0-5]\d:[0-5]\d|24:00:00)$/);

/**
 * True when `v` is exactly what Date#toISOString prints for some instant. Zod 4 runs a refine even after the
 * regex before it failed, so this sees arbitrary strings: an unparsable one (month 13, hour 25) must be a plain
 * false, never the RangeError that toISOString throws for an invalid Date.
 */
export function isCanonicalInstant(v: string): boolean {
  const ms = Date.parse(v);
  return Number.isFinite(ms) && new Date(ms).toISOString() === v;
}

/** A timestamp exactly as Date#toISOString prints it (columns keep millisecond precision). */
export const cursorInstant = z
  .string()
  .regex(/^[1-9]\d{3}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
  .refine(isCanonicalInstant);

/**
 * A timestamp with microseconds, 'YYYY-MM-DDTHH:MM:SS.ffffffZ' (to_char's `US`), for the few older columns kept at
 * PostgreSQL's default precision (contact_messages.created_at): a millisecond cursor would repeat or skip rows there.
 */
export const cursorMicros = z
  .string()
  .regex(/^[1-9]\d{3}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/)
  .refine((v) => isCanonicalInstant(`${v.slice(0, 23)}Z`));

export function encodeCursor(parts: readonly string[]): string {
  return Buffer.from(JSON.stringify(parts), 'utf8').toString('base64url');
}

/**
 * Every cursor this server makes is a short array of short strings. Anything else (objects, `__proto__` keys,
 * numbers, nested arrays, long strings) is refused here, before the schema looks at it.
 */
function isShortStringArray(json: unknown): json is string[] {
  return (
    Array.isArray(json) &&
    json.length <= 8 &&
    json.every((part) => typeof part === 'string' && part.length <= MAX_PART_LENGTH)
  );
}

/** The cursor's parts, or null for the first page; anything that is not a cursor this server made is a 400. */
export function decodeCursor<T extends z.ZodTuple>(cursor: string | undefined, schema: T): z.infer<T> | null {
  if (cursor === undefined || cursor === '') return null;
  if (cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalidCursor();
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  if (!isShortStringArray(json)) throw invalidCursor();
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw invalidCursor();
  return parsed.data;
}

/** Rows were fetched with limit + 1: the extra row only says that another page exists. */
export function toPage<R, T>(rows: R[], limit: number, map: (row: R) => T, key: (row: R) => readonly string[]) {
  const more = rows.length > limit;
  const pageRows = more ? rows.slice(0, limit) : rows;
  const last = pageRows[pageRows.length - 1];
  return {
    items: pageRows.map(map),
    next_cursor: more && last ? encodeCursor(key(last)) : null,
  };
}
