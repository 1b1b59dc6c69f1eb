import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../db/client';

/** Named prepared statements, as the app uses them unless DATABASE_PREPARE=false (tests behind PgBouncer). */
export const testPrepare = () => process.env.DATABASE_PREPARE !== 'false';

/**
 * Where a test database's LISTEN connection goes: PostgreSQL itself when DATABASE_LISTEN_URL is set (behind
 * PgBouncer in transaction mode, scripts/with-pgbouncer.sh), pointed at the same throwaway database.
 */
export function testListenUrl(databaseUrl: string): string | undefined {
  const direct = process.env.DATABASE_LISTEN_URL;
  if (!direct) return undefined;
  const listen = new URL(direct);
  listen.pathname = new URL(databaseUrl).pathname;
  return listen.toString();
}

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default, or a throwaway database on the
 * PostgreSQL server named by DATABASE_URL (created here, dropped on close), so files never share rows. Both start
 * as a copy of the migrated template of the run (test/database-template.ts) when there is one; the migrations
 * then find nothing left to do.
 */
/** What the run's global set-up provided; nothing outside Vitest (the e2e specs start their own apps with this). */
function provided<K extends 'pgliteTemplate' | 'postgresTemplate'>(key: K) {
  try {
    return inject(key);
  } catch {
    return undefined;
  }
}

export async function createTestDatabase(): Promise<Database & { url?: string }> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const template = provided('pgliteTemplate');
    const loadDataDir = template ? new Blob([await readFile(template)]) : undefined;
    return openDatabase({ dataDir: 'memory://', loadDataDir });
  }

  const name = `rr_test_${randomBytes(6).toString('hex')}`;
  const template = provided('postgresTemplate');
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  await admin.end();
  const target = new URL(url);
  target.pathname = `/${name}`;
  const database = await openDatabase({
    url: target.toString(),
    dataDir: '',
    poolSize: 20,
    prepare: testPrepare(),
    listenUrl: testListenUrl(target.toString()),
  });
  return {
    ...database,
    url: target.toString(),
    async close() {
      await database.close();
      const dropper = new pg.Client({ connectionString: url });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}
