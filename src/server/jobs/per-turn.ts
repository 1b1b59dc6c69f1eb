/**
 * Gathers the calls made during one turn of the event loop and serves them with one `run` of all their arguments,
 * once that turn's callbacks have run (setImmediate): the job worker's handlers that start or end together then cost
 * one statement, not one each. Each call resolves with `pick(result, its argument)` (or rejects with `run`'s error).
 */
export function perTurn<T, R, V = R>(
  run: (items: T[]) => Promise<R>,
  pick: (result: R, item: T) => V = (result) => result as unknown as V,
): (item: T) => Promise<V> {
  let items: T[] = [];
  let pending: Promise<R> | null = null;
  return (item) => {
    items.push(item);
    pending ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      const batch = items;
      items = [];
      pending = null;
      return run(batch);
    });
    return pending.then((result) => pick(result, item));
  };
}
