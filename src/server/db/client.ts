import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema';

export type Schema = typeof schema;
/** Both drivers produce this; services depend on nothing narrower. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/**
 * Opens PostgreSQL: a real server when `url` is given, else embedded PGlite persisted in `dataDir`
 * (in memory when dataDir is 'memory://'). Applies pending migrations before returning.
 */
export async function openDatabase(opts: { url?: string; dataDir: string; poolSize?: number }): Promise<Database> {
  if (opts.url) {
    const [{ default: pg }, { drizzle }, { migrate }] = await Promise.all([
      import('pg'),
      import('drizzle-orm/node-postgres'),
      import('drizzle-orm/node-postgres/migrator'),
    ]);
    const pool = new pg.Pool({
      connectionString: opts.url,
      max: opts.poolSize ?? 10,
      // Named prepared statements (the marketplace lists) keep one plan per connection instead of being re-planned
      // on every call; their index range scans do not depend on the parameter values. Unnamed queries are
      // planned per call as always. See docs/decisions/008-api-throughput.md.
      options: '-c plan_cache_mode=force_generic_plan',
    });
    // An idle client's error must not crash the process; the pool replaces it.
    pool.on('error', (err) => console.error('[db] idle client error:', err.message));
    const db = drizzle(pool, { schema });
    await migrate(db, { migrationsFolder });
    return { db: db as unknown as Db, kind: 'postgres', close: () => pool.end() };
  }
  const [{ PGlite }, { drizzle }, { migrate }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
  ]);
  if (!opts.dataDir.startsWith('memory://')) mkdirSync(opts.dataDir, { recursive: true });
  const client = await PGlite.create(opts.dataDir);
  const db = drizzle(client, { schema });
  await migrate(db, { migrationsFolder });
  return { db: db as unknown as Db, kind: 'pglite', close: () => client.close() };
}
