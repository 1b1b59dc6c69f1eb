import { describe, expect, it } from 'vitest';
import { perTurn } from './per-turn';

describe('perTurn', () => {
  it('serves the calls of one turn with one run, and a later turn with another', async () => {
    const runs: number[][] = [];
    const double = perTurn(
      async (items: number[]) => {
        runs.push(items);
        return new Map(items.map((n) => [n, n * 2]));
      },
      (result, n) => result.get(n),
    );
    const first = await Promise.all([double(1), double(2), double(3)]);
    expect(first).toEqual([2, 4, 6]);
    const later = await double(4);
    expect(later).toBe(8);
    expect(runs).toEqual([[1, 2, 3], [4]]);
  });

  it('gathers calls made by callbacks of the same turn (I/O or timers) before its run', async () => {
    const runs: string[][] = [];
    const call = perTurn(async (items: string[]) => void runs.push(items));
    // Two callbacks of the same timers phase: the second's call joins the first's batch.
    await new Promise<void>((resolve) => {
      let done = 0;
      const both = () => ++done === 2 && resolve();
      setTimeout(() => void call('a').then(both), 0);
      setTimeout(() => void call('b').then(both), 0);
    });
    expect(runs).toEqual([['a', 'b']]);
  });

  it("rejects every call of a batch with its run's error, and the next turn starts afresh", async () => {
    let fail = true;
    const call = perTurn(async (items: number[]) => {
      if (fail) throw new Error('database gone');
      return items.length;
    });
    const outcomes = await Promise.allSettled([call(1), call(2)]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    expect((outcomes[0] as PromiseRejectedResult).reason).toBeInstanceOf(Error);
    fail = false;
    expect(await call(3)).toBe(1);
  });
});
