import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/database';
import type { Database } from './client';
import { pgNotify } from './notify';

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
