import { createHash } from 'node:crypto';
import type { Pool, QueryConfig } from 'pg';

/**
 * A connection pool for `url`. With `prepare: false`, every query goes out unnamed: PgBouncer in transaction mode
 * hands each transaction a different server connection, where a statement prepared on another one does not exist
 * (or exists under the same name with other text). The services keep calling `.prepare(name)`; only the driver
 * drops the name, so nothing else needs to know.
 */
export async function createPool(url: string, opts: { max: number; prepare: boolean }): Promise<Pool> {
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.max,
    // Every connection the pool opens stays open (pg-pool closes idle ones above `min`). A closed one came back cold
    // when traffic rose again: a new backend whose catalog caches, prepared statements and the move functions' plans
    // were built again on its first requests, tens of ms each (bench:api saw 3 of 10 reopened inside one 8 s run at
    // 100 writes/s, and its p99 go from 25 to 74-127 ms). docs/decisions/041-pool-keeps-connections.md
    min: opts.max,
    ...(opts.prepare
      ? {
          // Named prepared statements (the marketplace lists) keep one plan per connection instead of being
          // re-planned on every call; their index range scans do not depend on the parameter values. The setting
          // holds for unnamed parameterised queries too: they get a generic plan as well, so a status that must
          // match a partial index's predicate is written as a literal, never as a parameter. See
          // docs/decisions/008-api-throughput.md and 016-booking-lifecycle.md.
          options: '-c plan_cache_mode=force_generic_plan',
          Client: autoNamedStatementClient(pg.Client),
        }
      : { Client: unnamedStatementClient(pg.Client) }),
  });
  // An idle client's error must not crash the process; the pool replaces it.
  pool.on('error', (err) => console.error('[db] idle client error:', err.message));
  return pool;
}

type ClientClass = typeof import('pg').Client;

/**
 * Statements with parameters that nobody named are named after their text, so that each connection parses and plans
 * them once and then only binds and executes them, as `.prepare(name)` does for the ones named in the code. A write
 * such as choose runs a dozen small statements; parsing and planning each one again on every call was about half of
 * the database's CPU for it (measured with bench:api, BENCH_TRACE=1: 16.7 ms of backend CPU per choose against 6.3 ms
 * of execution). At most AUTO_NAMED_PER_CONNECTION texts are kept per connection (each holds a plan in the server's
 * memory); past that, statements go out unnamed as before. A statement is named only with values: one without any
 * (a literal SQL text) is usually run once.
 */
const AUTO_NAMED_PER_CONNECTION = 500;
const autoNames = new Map<string, string>();

function autoNameOf(text: string): string {
  let name = autoNames.get(text);
  if (!name) {
    name = `a_${createHash('sha256').update(text).digest('base64url').slice(0, 22)}`;
    // The texts are the app's own statements; the map is bounded all the same (a query built with an IN list of
    // each length, say).
    if (autoNames.size < 10_000) autoNames.set(text, name);
  }
  return name;
}

function autoNamedStatementClient(Base: ClientClass): ClientClass {
  class AutoNamedStatementClient extends Base {
    autoNamed = new Set<string>();
  }
  const query = Base.prototype.query as (...args: unknown[]) => unknown;
  AutoNamedStatementClient.prototype.query = function (this: AutoNamedStatementClient, ...args: unknown[]) {
    const [config, values] = args;
    if (
      typeof config === 'object' &&
      config !== null &&
      !('name' in config) &&
      !('submit' in config) &&
      typeof (config as QueryConfig).text === 'string' &&
      ((Array.isArray(values) ? values.length : 0) || ((config as QueryConfig).values?.length ?? 0)) > 0
    ) {
      const name = autoNameOf((config as QueryConfig).text);
      if (this.autoNamed.has(name) || this.autoNamed.size < AUTO_NAMED_PER_CONNECTION) {
        this.autoNamed.add(name);
        args[0] = { ...config, name };
      }
    }
    return query.apply(this, args);
  } as ClientClass['prototype']['query'];
  return AutoNamedStatementClient;
}

/** Its class name must not contain "Pool": drizzle tells a pool from a client by that name. */
function unnamedStatementClient(Base: ClientClass): ClientClass {
  class UnnamedStatementClient extends Base {}
  const query = Base.prototype.query as (...args: unknown[]) => unknown;
  UnnamedStatementClient.prototype.query = function (this: InstanceType<ClientClass>, ...args: unknown[]) {
    const [config] = args;
    if (typeof config === 'object' && config !== null && 'name' in config && !('submit' in config)) {
      const { name: _unnamed, ...unnamed } = config as QueryConfig;
      args[0] = unnamed;
    }
    return query.apply(this, args);
  } as ClientClass['prototype']['query'];
  return UnnamedStatementClient;
}

/**
 * How many callers wait for a connection of `db`'s pool now (drizzle's node-postgres database keeps its pool as
 * `$client`); 0 for PGlite, which has no pool. The job worker runs one job at a time while it is above 0.
 */
export function poolWaiting(db: unknown): number {
  return (db as { $client?: { waitingCount?: number } }).$client?.waitingCount ?? 0;
}
