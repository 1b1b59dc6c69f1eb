import { describe, expect, it } from 'vitest';
import { placeZips, places } from '../db/schema';
import { setupTwoInstances } from '../test/harness';
import { countRows } from '../test/marketplace';
import { loadPlaces } from './load';

const realPostgres = Boolean(process.env.DATABASE_URL);

describe.skipIf(!realPostgres)('two instances starting together on one empty database', () => {
  const { ctx } = setupTwoInstances();

  it('load the places once: one waits on the advisory lock, then finds them loaded', async () => {
    const [a, b] = ctx.databases;
    expect(await countRows(a.db, places)).toBe(0);
    const loaded = await Promise.all([loadPlaces(a.db), loadPlaces(b.db)]);
    // Exactly one of them inserted; the other saw the rows (a duplicate insert would have failed on the keys).
    expect(loaded.filter((n) => n > 0)).toHaveLength(1);
    expect(loaded.filter((n) => n === 0)).toHaveLength(1);
    const total = loaded.find((n) => n > 0)!;
    expect(await countRows(b.db, places)).toBe(total);
    expect(await countRows(a.db, placeZips)).toBeGreaterThan(total);
  });
});
