import { describe, expect, it } from 'vitest';
import type { DeliveryRequest } from '../../shared/marketplace';
import { setupTestApp } from '../test/harness';
import { requestBody, rideBody, type PageBody } from '../test/marketplace';
import { createPool } from './pool';

/**
 * The marketplace lists run as named prepared statements. Behind PgBouncer in transaction mode each transaction
 * may land on another server connection, where that name is unknown (or already taken): run this file under
 * `scripts/with-postgres.sh scripts/with-pgbouncer.sh` to see DATABASE_PREPARE=false keep every list working.
 */
describe('every list under concurrent load (named statements, or unnamed with DATABASE_PREPARE=false)', () => {
  const { call, signUpAndIn } = setupTestApp({ AUTH_PER_IP_MAX: '100000' });

  it('answers 200 to 30 parallel calls of each list, first pages and cursor pages', async () => {
    const owner = await signUpAndIn();
    const driver = await signUpAndIn();
    for (let i = 0; i < 3; i++) {
      await call('POST', '/rides', { cookie: owner.token, body: rideBody() });
      const req = await call<DeliveryRequest>('POST', '/requests', { cookie: owner.token, body: requestBody() });
      await call('POST', '/bookings', { cookie: driver.token, body: { request_id: req.body.id } });
    }
    const lists = [
      ['/rides/browse', owner.token],
      ['/rides/mine', owner.token],
      ['/requests/browse', driver.token],
      ['/requests/mine', owner.token],
      ['/bookings/mine', driver.token],
    ] as const;
    const cursors = await Promise.all(
      lists.map(async ([path, token]) => {
        const first = await call<PageBody<unknown>>('GET', `${path}?limit=1`, { cookie: token });
        expect(first.body.next_cursor).toEqual(expect.any(String));
        return first.body.next_cursor!;
      }),
    );
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(
        lists.flatMap(([path, token], i) =>
          Array.from({ length: 30 }, (_, n) =>
            call('GET', n % 2 ? `${path}?limit=1&cursor=${cursors[i]}` : path, { cookie: token }),
          ),
        ),
      );
      const failures = answers.filter((a) => a.status !== 200).map((a) => JSON.stringify(a.body));
      expect(failures).toEqual([]);
    }
  });
});

describe.skipIf(!process.env.DATABASE_URL)('DATABASE_PREPARE on real PostgreSQL', () => {
  const prepared = async (prepare: boolean) => {
    // A fresh name: behind PgBouncer a server connection outlives the pool that prepared something on it.
    const name = `rr_probe_${Math.random().toString(36).slice(2)}`;
    const pool = await createPool(process.env.DATABASE_URL!, { max: 1, prepare });
    try {
      const client = await pool.connect();
      try {
        // One transaction keeps both statements on one server connection, behind PgBouncer too.
        await client.query('BEGIN');
        await client.query({ name, text: 'SELECT $1::int AS n', values: [1] });
        const { rows } = await client.query('SELECT name FROM pg_prepared_statements WHERE name = $1', [name]);
        await client.query('COMMIT');
        return rows.length;
      } finally {
        client.release();
      }
    } finally {
      await pool.end();
    }
  };

  it('prepares named statements on the server by default, and none with prepare: false', async () => {
    expect(await prepared(true)).toBe(1);
    expect(await prepared(false)).toBe(0);
  });
});

describe.skipIf(!process.env.DATABASE_URL)('the pool on real PostgreSQL', () => {
  it('keeps every connection it opened: no idle timer closes one, and a later burst runs on the same connections', async () => {
    const pool = await createPool(process.env.DATABASE_URL!, { max: 3, prepare: true });
    // The pool's connections themselves (behind PgBouncer a backend pid may change between transactions).
    const burst = async () => {
      const clients = await Promise.all([pool.connect(), pool.connect(), pool.connect()]);
      try {
        await Promise.all(clients.map((c) => c.query('select 1')));
        return new Set<unknown>(clients);
      } finally {
        for (const c of clients) c.release();
      }
    };
    try {
      const first = await burst();
      expect(pool.totalCount).toBe(3);
      expect(pool.idleCount).toBe(3);
      // pg-pool arms an idle timer for each released connection above `min` (its internal list of idle items):
      // none is armed, so none is closed however long the quiet lasts.
      const idle = (pool as unknown as { _idle: { timeoutId?: unknown }[] })._idle;
      expect(idle).toHaveLength(3);
      expect(idle.filter((item) => item.timeoutId !== undefined)).toEqual([]);
      const second = await burst();
      expect(second.size).toBe(3);
      expect([...second].every((c) => first.has(c))).toBe(true);
    } finally {
      await pool.end();
    }
  });
});
