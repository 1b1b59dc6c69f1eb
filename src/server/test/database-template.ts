import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { TestProject } from 'vitest/node';

/**
 * Vitest's global setup for the database tests: the migrations run once per run (or once per migration set, kept
 * between runs), and every test file starts from a copy of that migrated database (test/database.ts) instead of
 * migrating its own (about 3 s each on PGlite). On PGlite the copy is a dump of the data directory, on real
 * PostgreSQL a template database. Each test file still gets a database of its own.
 */

declare module 'vitest' {
  export interface ProvidedContext {
    /** A file holding the dump of a migrated PGlite data directory (PGlite's `dumpDataDir`). */
    pgliteTemplate?: string;
    /** The name of a migrated database on the DATABASE_URL server, to CREATE DATABASE ... TEMPLATE from. */
    postgresTemplate?: string;
  }
}

const migrationsFolder = fileURLToPath(new URL('../db/migrations', import.meta.url));

/** Changes whenever a migration or the embedded database's version does: a stale template is never used. */
function migrationsHash(): string {
  const hash = createHash('sha256');
  const pglite = JSON.parse(
    readFileSync(join(process.cwd(), 'node_modules/@electric-sql/pglite/package.json'), 'utf8'),
  ) as { version: string };
  hash.update(pglite.version);
  const files = readdirSync(migrationsFolder, { recursive: true, encoding: 'utf8' }).sort();
  for (const file of files) {
    if (!/\.(sql|json)$/.test(file)) continue;
    hash.update(file).update(readFileSync(join(migrationsFolder, file)));
  }
  return hash.digest('hex').slice(0, 16);
}

async function pgliteTemplate(hash: string): Promise<string> {
  const file = join(tmpdir(), `rr-pglite-template-${hash}.tar`);
  if (existsSync(file)) return file;
  const [{ PGlite }, { pgliteExtensions }, { migratePglite }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('../db/client'),
    import('../db/migrate'),
  ]);
  const client = await PGlite.create({ extensions: await pgliteExtensions() });
  try {
    await migratePglite(client);
    const dump = await client.dumpDataDir('none');
    // Written aside and renamed: a run started meanwhile never reads half a file.
    const partial = `${file}.${process.pid}`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, file);
  } finally {
    await client.close();
  }
  return file;
}

async function postgresTemplate(url: string, hash: string): Promise<string> {
  const name = `rr_template_${hash}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    // Two runs on one server at once: one makes the template, the other waits for it.
    await admin.query('select pg_advisory_lock(hashtext($1))', [name]);
    const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) {
      const building = `${name}_building`;
      await admin.query(`drop database if exists ${building} with (force)`);
      await admin.query(`create database ${building}`);
      const target = new URL(url);
      target.pathname = `/${building}`;
      const [{ createPool }, { migratePostgres }] = await Promise.all([import('../db/pool'), import('../db/migrate')]);
      const pool = await createPool(target.toString(), { max: 1, prepare: false });
      try {
        await migratePostgres(pool);
      } finally {
        await pool.end();
      }
      // Renamed only once complete: an interrupted build leaves no template behind.
      await admin.query(`alter database ${building} rename to ${name}`);
    }
  } finally {
    await admin.end();
  }
  return name;
}

export async function setup(project: TestProject) {
  const hash = migrationsHash();
  const url = process.env.DATABASE_URL;
  // Behind PgBouncer (transaction pooling) a session's advisory lock would stay on a pooled connection: the
  // template is made on the server itself, which DATABASE_LISTEN_URL then names.
  if (url) project.provide('postgresTemplate', await postgresTemplate(process.env.DATABASE_LISTEN_URL ?? url, hash));
  else project.provide('pgliteTemplate', await pgliteTemplate(hash));
}
