import { mkdirSync } from 'node:fs';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { lockDataDir } from './data-dir-lock';
import { migratePglite, migratePostgres } from './migrate';
import {
  defaultReconnect,
  pgliteNotifications,
  pgNotifications,
  type Notifications,
  type ReconnectPolicy,
} from './notify';
import { createPool } from './pool';
import * as schema from './schema';

export type Schema = typeof schema;
/** Both drivers produce this; services depend on nothing narrower. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** LISTEN/NOTIFY over this process's one dedicated LISTEN connection (see notify.ts). */
  notifications: Notifications;
  /** Closes the LISTEN connection too. */
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
  /** The LISTEN connection's server when it differs from `url` (a transaction-mode pooler cannot hold a LISTEN). */
  listenUrl?: string;
  /** How the LISTEN connection reconnects (tests slow it down to observe an outage). */
  listen?: Partial<ReconnectPolicy>;
  /** PGlite only: start from this dump of a data directory (a migrated template: tests start in a second, not four). */
  loadDataDir?: Blob;
}

/**
 * Opens PostgreSQL: a real server when `url` is given, else embedded PGlite persisted in `dataDir`
 * (in memory when dataDir is 'memory://'), which this process then holds exclusively (see data-dir-lock.ts).
 */
export async function openDatabase(opts: OpenOptions): Promise<Database> {
  const migrate = opts.migrate ?? true;
  if (opts.url) {
    const [pool, { drizzle }, { default: pg }] = await Promise.all([
      createPool(opts.url, { max: opts.poolSize ?? 10, prepare: opts.prepare ?? true }),
      import('drizzle-orm/node-postgres'),
      import('pg'),
    ]);
    try {
      if (migrate) await migratePostgres(pool);
    } catch (err) {
      await pool.end();
      throw err;
    }
    const db = drizzle(pool, { schema });
    const notifications = listenConnection(pg.Client, opts.listenUrl ?? opts.url, db as unknown as Db, opts.listen);
    return {
      db: db as unknown as Db,
      kind: 'postgres',
      notifications,
      close: async () => {
        await notifications.close();
        await pool.end();
      },
    };
  }
  const [{ PGlite }, { drizzle }, extensions] = await Promise.all([
    import('@electric-sql/pglite'),
    import('drizzle-orm/pglite'),
    pgliteExtensions(),
  ]);
  let unlock = () => {};
  if (!opts.dataDir.startsWith('memory://')) {
    mkdirSync(opts.dataDir, { recursive: true });
    unlock = lockDataDir(opts.dataDir);
  }
  try {
    const client = await PGlite.create(opts.dataDir, {
      extensions,
      ...(opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {}),
    });
    if (migrate)
      await migratePglite(client).catch(async (err: unknown) => {
        await client.close();
        throw err;
      });
    const db = drizzle(client, { schema });
    const notifications = pgliteNotifications(client);
    return {
      db: db as unknown as Db,
      kind: 'pglite',
      notifications,
      close: async () => {
        try {
          await notifications.close();
          await client.close();
        } finally {
          unlock();
        }
      },
    };
  } catch (err) {
    unlock();
    throw err;
  }
}

/** The extensions the migrations create (place suggestions and text search; PostgreSQL ships both in contrib). */
export async function pgliteExtensions() {
  const [{ pg_trgm }, { unaccent }] = await Promise.all([
    import('@electric-sql/pglite/contrib/pg_trgm'),
    import('@electric-sql/pglite/contrib/unaccent'),
  ]);
  return { pg_trgm, unaccent };
}

/** Its own pg.Client, opened at the first listen(): scripts that never listen never open it. */
function listenConnection(
  Client: typeof import('pg').Client,
  url: string,
  db: Db,
  policy: Partial<ReconnectPolicy> = {},
): Notifications {
  return pgNotifications(
    () =>
      new Client({
        connectionString: url,
        application_name: 'ruralroute-listen',
        keepAlive: true,
        // Bounds the keep-alive ping: a connection that cannot answer it counts as lost.
        query_timeout: 5_000,
      }),
    (query) => db.execute(query),
    { ...defaultReconnect, ...policy },
  );
}
