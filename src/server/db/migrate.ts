import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import type { Pool } from 'pg';
import * as schema from './schema';

/** Beside this module in the source tree; the server build copies the folder beside dist/server/main.js. */
const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/** Any fixed number: every instance of the app must use the same one. */
const MIGRATION_LOCK_KEY = '7411930254821370';

/**
 * Applies pending migrations while holding a transaction-level advisory lock, so instances starting together on
 * an empty database take turns instead of racing on CREATE TABLE (and the second one finds nothing left to do).
 *
 * The lock is taken in a transaction opened here on one dedicated connection. drizzle's migrate then runs its
 * statements on that connection and ends with its own BEGIN ... COMMIT: PostgreSQL ignores the inner BEGIN (with
 * a warning notice), so drizzle's COMMIT commits the whole migration and releases the lock in one go. Being one
 * transaction, it also holds behind PgBouncer in transaction mode, where a session-level lock would leak.
 */
export async function migratePostgres(pool: Pool): Promise<void> {
  const [{ drizzle }, { migrate }] = await Promise.all([
    import('drizzle-orm/node-postgres'),
    import('drizzle-orm/node-postgres/migrator'),
  ]);
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [MIGRATION_LOCK_KEY]);
    await migrate(drizzle(client, { schema }), { migrationsFolder });
  } catch (err) {
    broken = err as Error;
    throw err;
  } finally {
    // After drizzle's COMMIT (or ROLLBACK) there is no transaction left: this ends ours on any earlier failure.
    await client.query('ROLLBACK').catch(() => undefined);
    // A connection that failed mid-migration is closed rather than reused.
    client.release(broken);
  }
}

export async function migratePglite(client: PGlite): Promise<void> {
  const [{ drizzle }, { migrate }] = await Promise.all([
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
  ]);
  await migrate(drizzle(client, { schema }), { migrationsFolder });
}
