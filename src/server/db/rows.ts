import { sql, type SQLWrapper } from 'drizzle-orm';

/** The rows of `db.execute(sql...)`: node-postgres and PGlite shape the result differently. */
export function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

/**
 * A timestamptz as Date#toISOString prints it (columns keep milliseconds), for raw statements: drizzle's driver
 * setup hands timestamps of raw rows back as PostgreSQL's text, which Date cannot be trusted to parse.
 */
export const isoInstant = (column: SQLWrapper) =>
  sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
