import { sql } from 'drizzle-orm';

// The CHECK helpers every table file uses: a limit of the spec repeated in the database, so no writer can store what
// the API refuses.

export const lengthBetween = (column: unknown, max: number) =>
  sql`char_length(${column}) between 1 and ${sql.raw(String(max))}`;
export const lengthAtMost = (column: unknown, max: number) => sql`char_length(${column}) <= ${sql.raw(String(max))}`;
export const oneOf = (column: unknown, values: readonly string[]) =>
  sql`${column} in (${sql.raw(values.map((v) => `'${v}'`).join(', '))})`;
