import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import {
  defaultReconnect,
  pgliteNotifications,
  pgNotifications,
  type Notifications,
  type ReconnectPolicy,
} from './notify';
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

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/**
 * Opens PostgreSQL: a real server when `url` is given, else embedded PGlite persisted in `dataDir`
 * (in memory when dataDir is 'memory://'). Applies pending migrations before returning.
 */
export async function openDatabase(opts: {
  url?: string;
  dataDir: string;
  poolSize?: number;
  /** The LISTEN connection's server when it differs from `url` (a transaction-mode pooler cannot hold a LISTEN). */
  listenUrl?: string;
  /** How the LISTEN connection reconnects (tests slow it down to observe an outage). */
  listen?: Partial<ReconnectPolicy>;
}): Promise<Database> {
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
  const [{ PGlite }, { drizzle }, { migrate }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
  ]);
  if (!opts.dataDir.startsWith('memory://')) mkdirSync(opts.dataDir, { recursive: true });
  const client = await PGlite.create(opts.dataDir);
  const db = drizzle(client, { schema });
  await migrate(db, { migrationsFolder });
  const notifications = pgliteNotifications(client);
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    notifications,
    close: async () => {
      await notifications.close();
      await client.close();
    },
  };
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
