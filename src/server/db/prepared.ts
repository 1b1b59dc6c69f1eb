import type { Query, SQL } from 'drizzle-orm';
import type { PgDialect, PgSession } from 'drizzle-orm/pg-core';
import type { Db } from './client';

/** What drizzle keeps on every database and transaction object, typed for the one use below. */
interface Internals {
  _: { session: PgSession & { dialect: PgDialect } };
}

/**
 * Raw SQL that the query builder cannot express (one WITH of several writes) as a named prepared statement, run in
 * whatever `db` is given (a transaction or the pool): PostgreSQL parses and plans it once per connection instead of on
 * every call. Planning is most of such a statement's cost: the event outbox's flush took 0.61 ms as an unnamed
 * statement and 0.13 ms prepared (pgbench, one client; docs/decisions/024-tail-latency.md). `sql.placeholder(...)`
 * values are filled on each call; every other value in the SQL `query` returns is fixed when it is first built (on the
 * first call, so module constants it names are all initialised by then). Behind PgBouncer the pool drops the name
 * (db/pool.ts), and PGlite plans each statement as before.
 */
export function preparedStatement(name: string, query: () => SQL) {
  let built: Query | undefined;
  return (db: Db, values: Record<string, unknown>): Promise<unknown> => {
    const { session } = (db as unknown as Internals)._;
    built ??= session.dialect.sqlToQuery(query());
    return session.prepareQuery(built, undefined, name, false).execute(values);
  };
}
