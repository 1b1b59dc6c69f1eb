import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/database';
import type { Database } from './client';
import { pgNotifications, pgNotify } from './notify';

/** Runs on PGlite, and on real PostgreSQL with DATABASE_URL (through the dedicated LISTEN connection). */
describe('Database.notifications', () => {
  let database: Database;
  const got: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    database.notifications.listen('test_channel', (p) => got.push(p));
    const deadline = Date.now() + 5_000;
    while (!database.notifications.isListening('test_channel') && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 10));
  });
  afterAll(() => database?.close());

  async function received(payload: string, withinMs = 1_000): Promise<boolean> {
    const deadline = Date.now() + withinMs;
    while (!got.includes(payload) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    return got.includes(payload);
  }

  it('delivers what notify() sends to every handler of that channel, and not other channels', async () => {
    expect(database.notifications.isListening('test_channel')).toBe(true);
    expect(database.notifications.isListening('other_channel')).toBe(false);
    const second: string[] = [];
    const status: boolean[] = [];
    const unlisten = database.notifications.listen(
      'test_channel',
      (p) => {
        second.push(p);
        throw new Error('a failing handler does not stop the others');
      },
      (listening) => status.push(listening),
    );
    // A late subscriber hears the current state at once.
    expect(status).toEqual([true]);
    await database.notifications.notify('test_channel', 'hello');
    await database.notifications.notify('other_channel', 'elsewhere');
    expect(await received('hello')).toBe(true);
    expect(second).toEqual(['hello']);
    await unlisten();
    await database.notifications.notify('test_channel', 'after');
    expect(await received('after')).toBe(true);
    expect(second).toEqual(['hello']);
    expect(got).not.toContain('elsewhere');
  });

  it('sends pgNotify from a statement only when its transaction commits', async () => {
    await database.db
      .transaction(async (tx) => {
        await tx.execute(sql`select ${pgNotify('test_channel', 'rolled back')}`);
        throw new Error('roll back');
      })
      .catch(() => {});
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`select ${pgNotify('test_channel', 'committed')}`);
    });
    expect(await received('committed')).toBe(true);
    // Notifications arrive in commit order: the rolled-back one would have come first.
    expect(got).not.toContain('rolled back');
  });

  it('refuses channel names that are not plain identifiers', () => {
    expect(() => database.notifications.listen('Bad"; DROP', () => {})).toThrow(/invalid notification channel/);
    expect(() => pgNotify('with space', 'x')).toThrow(/invalid notification channel/);
  });
});

/** Real PostgreSQL only (DATABASE_URL): the LISTEN connection itself. */
describe.runIf(process.env.DATABASE_URL)('pgNotifications: the LISTEN connection', () => {
  it('sends its statements one at a time, however many channels are subscribed at once', async () => {
    const database = await createTestDatabase();
    // Counts the statements queued on the connection at once (pg deprecates a second behind a first).
    let inFlight = 0;
    let most = 0;
    const counting = () => {
      const client = new pg.Client({ connectionString: database.url });
      const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
      (client as unknown as { query: typeof query }).query = (...args) => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        const done = () => (inFlight -= 1);
        const result = query(...args);
        void result.then(done, done);
        return result;
      };
      return client;
    };
    const notifications = pgNotifications(counting, (query) => database.db.execute(query), {
      minMs: 50,
      maxMs: 200,
      pingMs: 20,
    });
    const got: string[] = [];
    const channels = ['serial_a', 'serial_b', 'serial_c', 'serial_d', 'serial_e'];
    try {
      // The first opens the connection; the others come while it is connecting, then while it LISTENs.
      for (const channel of channels) notifications.listen(channel, (p) => got.push(`${channel}:${p}`));
      await new Promise((r) => setTimeout(r, 0));
      notifications.listen('serial_f', (p) => got.push(`serial_f:${p}`));
      const deadline = Date.now() + 5_000;
      const all = [...channels, 'serial_f'];
      while (!all.every((c) => notifications.isListening(c)) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 5));
      expect(all.filter((c) => !notifications.isListening(c))).toEqual([]);
      // Pings (every 20 ms here) and another LISTEN in between.
      await new Promise((r) => setTimeout(r, 100));
      notifications.listen('serial_g', () => {});
      await new Promise((r) => setTimeout(r, 100));
      expect(notifications.isListening('serial_g')).toBe(true);
      await notifications.notify('serial_c', 'hi');
      const until = Date.now() + 2_000;
      while (!got.includes('serial_c:hi') && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
      expect(got).toEqual(['serial_c:hi']);
      expect(most).toBe(1);
    } finally {
      await notifications.close();
      await database.close();
    }
  });
});
