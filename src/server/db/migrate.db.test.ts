import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { getTableName, isTable, type Table } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './client';
import journal from './migrations/meta/_journal.json';
import * as schema from './schema';

const serverUrl = process.env.DATABASE_URL;
/** Every table the drizzle schema declares: the migrations must create exactly these. */
const EXPECTED_TABLES = (Object.values(schema) as unknown[])
  .filter((value): value is Table => isTable(value))
  .map((table) => getTableName(table))
  .sort();

async function admin<T>(url: string, run: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** A new database with nothing in it, dropped after the test. */
const cleanups: (() => Promise<void>)[] = [];
async function emptyDatabase(): Promise<string> {
  const name = `rr_empty_${randomBytes(6).toString('hex')}`;
  await admin(serverUrl!, (c) => c.query(`CREATE DATABASE ${name}`));
  cleanups.push(() => admin(serverUrl!, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then());
  const url = new URL(serverUrl!);
  url.pathname = `/${name}`;
  return url.toString();
}

afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const tables = (url: string) =>
  admin(url, async (c) =>
    (
      await c.query<{ table_name: string }>(
        `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`,
      )
    ).rows.map((r) => r.table_name),
  );

describe.skipIf(!serverUrl)('migrations on real PostgreSQL (skipped without DATABASE_URL)', () => {
  it('four instances opening one empty database at the same moment all come up, and migrate it once', async () => {
    const url = await emptyDatabase();
    const opened = await Promise.allSettled(Array.from({ length: 4 }, () => openDatabase({ url, dataDir: '' })));
    const databases = opened.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
    cleanups.push(async () => {
      await Promise.all(databases.map((d) => d.close()));
    });
    expect(opened.map((o) => (o.status === 'rejected' ? String(o.reason) : 'ok'))).toEqual(['ok', 'ok', 'ok', 'ok']);

    expect(await tables(url)).toEqual(EXPECTED_TABLES);
    const applied = await admin(url, (c) => c.query('SELECT hash FROM drizzle.__drizzle_migrations'));
    expect(applied.rowCount).toBe(journal.entries.length);
    // Every instance can use the schema.
    for (const d of databases) {
      const { rows } = await (d.db as unknown as { $client: pg.Pool }).$client.query('SELECT count(*) FROM users');
      expect(rows[0]).toEqual({ count: '0' });
    }
  });

  it('with migrate: false (MIGRATE_ON_START=false) an empty database is left as it is', async () => {
    const url = await emptyDatabase();
    const database = await openDatabase({ url, dataDir: '', migrate: false });
    await database.close();
    expect(await tables(url)).toEqual([]);
    const drizzleSchema = await admin(url, (c) =>
      c.query(`SELECT 1 FROM information_schema.schemata WHERE schema_name = 'drizzle'`),
    );
    expect(drizzleSchema.rowCount).toBe(0);
  });

  it('an instance opened with migrate: false works once another has migrated', async () => {
    const url = await emptyDatabase();
    const migrator = await openDatabase({ url, dataDir: '' });
    await migrator.close();
    const app: Database = await openDatabase({ url, dataDir: '', migrate: false });
    cleanups.push(() => app.close());
    const { rows } = await (app.db as unknown as { $client: pg.Pool }).$client.query('SELECT count(*) FROM rides');
    expect(rows[0]).toEqual({ count: '0' });
  });
});

describe('migrations on PGlite', () => {
  it('with migrate: false an empty database is left as it is', async () => {
    const database = await openDatabase({ dataDir: 'memory://', migrate: false });
    try {
      const { rows } = (await database.db.execute(
        `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`,
      )) as unknown as { rows: unknown[] };
      expect(rows).toEqual([]);
    } finally {
      await database.close();
    }
  });
});
