import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client';
import { attemptCounters } from '../db/schema';
import { counterKey, createAttemptCounter } from '../limits/attempt-counter';
import { createTestDatabase } from '../test/database';
import { contactRoutes } from './routes';
import { createContactService } from './service';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

describe('contact allowance', () => {
  it('gives the hit back when the message could not be stored', async () => {
    const real = createContactService(database.db, {
      clock: () => new Date(),
      appUrl: 'http://localhost',
      supportEmail: 'support@example.com',
    });
    const failing = {
      ...real,
      store: () => Promise.reject(new Error('database went away')),
    };
    const router = contactRoutes(failing, createAttemptCounter(database.db), { max: 1, windowMs: 60_000 }, 0);
    router.onError((_err, c) => c.json({ code: 'internal_error', message: 'failed' }, 500));
    const post = () =>
      router.request(
        '/',
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Ada', email: 'ada@example.com', subject: 'Hi', message: 'Hello' }),
        },
        { incoming: { socket: { remoteAddress: '10.50.0.1' } } },
      );
    expect((await post()).status).toBe(500);
    // Not 429: the failed attempt did not use up the allowance of 1.
    expect((await post()).status).toBe(500);
    const [row] = await database.db
      .select()
      .from(attemptCounters)
      .where(eq(attemptCounters.key, counterKey('contact-ip', '10.50.0.1')));
    expect(row?.hits).toBe(0);
  });
});
