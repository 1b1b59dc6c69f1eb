import { z } from 'zod';
import { isValidIsoDate } from '../../shared/dates';
import { INVALID_CURSOR_MESSAGE } from '../../shared/marketplace';
import { AppError } from './app-error';

/**
 * Keyset pagination cursors: the last row's sort key and id, as base64url JSON. Opaque to clients; validated
 * strictly on the way back in, because each part is cast to a SQL type and a bad value must be a 400, not a 500.
 */

const invalidCursor = () => new AppError(400, 'validation_error', INVALID_CURSOR_MESSAGE);

/** Any uuid PostgreSQL can produce (not only RFC 4122 v4). */
export const cursorUuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
export const cursorDate = z
  .string()
  .regex(/^[1-9]\d{3}-\d{2}-\d{2}$/)
  .refine(isValidIsoDate);
/** A PostgreSQL time as it comes back from the driver; '24:00:00' is the sort key of rides without a time. */
export const cursorTime = z.string().regex(/^(([01]\d|2[0-3]):[0-5]\d:[0-5]\d|24:00:00)$/);
/** A timestamp exactly as Date#toISOString prints it (columns keep millisecond precision). */
export const cursorInstant = z
  .string()
  .regex(/^[1-9]\d{3}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
  .refine((v) => new Date(v).toISOString() === v);

export function encodeCursor(parts: readonly string[]): string {
  return Buffer.from(JSON.stringify(parts), 'utf8').toString('base64url');
}

export function decodeCursor<T extends z.ZodTuple>(cursor: string | undefined, schema: T): z.infer<T> | null {
  if (cursor === undefined || cursor === '') return null;
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalidCursor();
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
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
