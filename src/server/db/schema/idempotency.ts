import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';

/**
 * Idempotent writes (src/shared/idempotency.ts): a person's `Idempotency-Key` with the SHA-256 of the
 * request it came with, and once that request has finished, its answer (status, content type, body). A row
 * without an answer is a request in progress: a repeat waits for it. Rows older than IDEMPOTENCY_TTL_HOURS count
 * as gone and are swept hourly; deleting an account deletes its rows (their bodies may hold personal data).
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    fingerprint: text('fingerprint').notNull(),
    status: integer('status'),
    contentType: text('content_type'),
    body: text('body'),
    /** The route was sensitive: a repeat runs its identity check first (idempotency/middleware.ts). */
    recheck: boolean('recheck').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.key] }),
    // The hourly sweep reads the oldest first.
    index('idempotency_keys_created_idx').on(t.createdAt),
    check('idempotency_keys_key_length', sql`char_length(${t.key}) between 1 and 255`),
  ],
);
