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
    ...(opts.prepare
      ? {
          // Named prepared statements (the marketplace lists) keep one plan per connection instead of being
          // re-planned on every call; their index range scans do not depend on the parameter values. The setting
          // holds for unnamed parameterised queries too: they get a generic plan as well, so a status that must
          // match a partial index's predicate is written as a literal, never as a parameter. See
          // docs/decisions/008-api-throughput.md and 016-booking-lifecycle.md.
          options: '-c plan_cache_mode=force_generic_plan',
        }
      : { Client: unnamedStatementClient(pg.Client) }),
  });
  // An idle client's error must not crash the process; the pool replaces it.
  pool.on('error', (err) => console.error('[db] idle client error:', err.message));
  return pool;
}

type ClientClass = typeof import('pg').Client;

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
