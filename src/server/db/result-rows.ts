/** The rows of `db.execute(sql...)`: node-postgres and PGlite shape the result differently. */
export function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}
