import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

// ─── Attempt counters (rate limits and throttles shared by every instance) ───────────────────────────────────────
/**
 * One fixed window per key, incremented by a single INSERT ... ON CONFLICT DO UPDATE (limits/attempt-counter.ts).
 * Keys are `scope:` plus a SHA-256 of what is counted, never an address or e-mail in clear. Rows are deleted
 * once their window has ended; see docs/decisions/009-attempt-limits-in-postgresql.md.
 */
export const attemptCounters = pgTable(
  'attempt_counters',
  {
    key: text('key').primaryKey(),
    hits: integer('hits').notNull(),
    // Millisecond precision: the window start is handed back to JS to release a hit in the same window only.
    windowStart: timestamp('window_start', { withTimezone: true, precision: 3 }).notNull(),
    windowEnd: timestamp('window_end', { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [index('attempt_counters_window_end_idx').on(t.windowEnd)],
);
