import { mkdirSync } from 'node:fs';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { lockDataDir } from './data-dir-lock';
import { migratePglite, migratePostgres } from './migrate';
import { createPool } from './pool';
import * as schema from './schema';

export type Schema = typeof schema;
/** Both drivers produce this; services depend on nothing narrower. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

export interface OpenOptions {
  url?: string;
  dataDir: string;
  poolSize?: number;
  /** Apply pending migrations before returning (default). `MIGRATE_ON_START=false` turns it off. */
  migrate?: boolean;
  /** Named prepared statements (default). Off behind PgBouncer in transaction mode (`DATABASE_PREPARE=false`). */
  prepare?: boolean;
}

/**
 * Opens PostgreSQL: a real server when `url` is given, else embedded PGlite persisted in `dataDir`
 * (in memory when dataDir is 'memory://'), which this process then holds exclusively (see data-dir-lock.ts).
 */
export async function openDatabase(opts: OpenOptions): Promise<Database> {
  const migrate = opts.migrate ?? true;
  if (opts.url) {
    const [pool, { drizzle }] = await Promise.all([
      createPool(opts.url, { max: opts.poolSize ?? 10, prepare: opts.prepare ?? true }),
      import('drizzle-orm/node-postgres'),
    ]);
    try {
      if (migrate) await migratePostgres(pool);
    } catch (err) {
      await pool.end();
      throw err;
    }
    const db = drizzle(pool, { schema });
    return { db: db as unknown as Db, kind: 'postgres', close: () => pool.end() };
  }
  const [{ PGlite }, { drizzle }] = await Promise.all([import('@electric-sql/pglite'), import('drizzle-orm/pglite')]);
  let unlock = () => {};
  if (!opts.dataDir.startsWith('memory://')) {
    mkdirSync(opts.dataDir, { recursive: true });
    unlock = lockDataDir(opts.dataDir);
  }
  try {
    const client = await PGlite.create(opts.dataDir);
    if (migrate)
      await migratePglite(client).catch(async (err: unknown) => {
        await client.close();
        throw err;
      });
    const db = drizzle(client, { schema });
    return { db: db as unknown as Db, kind: 'pglite', close: () => client.close().finally(unlock) };
  } catch (err) {
    unlock();
    throw err;
  }
}
