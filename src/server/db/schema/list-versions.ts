import { bigint, check, integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { oneOf } from './checks';

/**
 * A version per browse list (rides, requests), bumped in the writer's own transaction by statement
 * triggers (migration 0018) on every table whose rows a browse card shows: the listing itself, the poster's
 * profile (name, rating) and the user's suspension. One row per list and backend (shard = its pid, migration 0019), so
 * no transaction ever waits for another's version row (16 shared rows deadlocked). A list's version
 * is the sum of its rows: it grows with every committed write, so a page cached under one version is served only
 * while no write has committed since (src/server/listings), on every instance.
 */
export const listVersions = pgTable(
  'list_versions',
  {
    list: text('list').notNull(),
    shard: integer('shard').notNull(),
    version: bigint('version', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.list, t.shard] }),
    check('list_versions_list_check', oneOf(t.list, ['rides', 'requests'])),
  ],
);

/**
 * A version per user for their own lists (My Rides, My Requests, My Bookings), bumped in the writer's own
 * transaction by statement triggers (migration 0020) on every write that changes what one of those lists shows to
 * that user: their rides and requests, the bookings they are a party to, the title and places of a request they have
 * an offer on, and their own and their counterparts' names and ratings. One row per user and backend (shard = its
 * pid, as list_versions), so no transaction waits for another's row; a user's version is the sum of their rows. No
 * foreign key: a row may outlive its user (a deletion's own writes bump it), and the periodic fold removes it.
 */
export const myListVersions = pgTable(
  'my_list_versions',
  {
    userId: uuid('user_id').notNull(),
    shard: integer('shard').notNull(),
    version: bigint('version', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.shard] })],
);
