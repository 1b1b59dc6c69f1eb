import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import type { Database, Db } from '../db/client';
import * as schema from '../db/schema';

export interface Captured {
  label: string;
  query: string;
  params: unknown[];
}

/**
 * A drizzle instance on the database's own connections that records each statement's text and parameters, under
 * the label last given to `labelNext` (which step sent it): what a bench runs through the services to EXPLAIN.
 */
export async function loggingDb(database: Database) {
  const captured: Captured[] = [];
  let label = '';
  const logger = { logQuery: (query: string, params: unknown[]) => captured.push({ label, query, params }) };
  const client = (database.db as unknown as { $client: pg.Pool | PGlite }).$client;
  const db = (database.kind === 'postgres'
    ? (await import('drizzle-orm/node-postgres')).drizzle({ client: client as pg.Pool, schema, logger })
    : (await import('drizzle-orm/pglite')).drizzle({ client: client as PGlite, schema, logger })) as unknown as Db;
  return {
    db,
    captured,
    client: client as pg.Pool,
    labelNext: (next: string) => {
      label = next;
    },
  };
}
