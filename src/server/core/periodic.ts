/**
 * A task every instance runs on a timer (sweeps of expired rows, publishing due reviews): runs of one instance
 * never overlap (`run()` queues after the run in progress; a timer tick while one runs is skipped), a failure is
 * logged and the next tick tries again, and `close()` stops the timer and waits for the run in progress (call it
 * before closing the database). Several instances may run it at once: the task itself must allow that.
 */
export function periodic<T>(name: string, task: () => Promise<T>, everyMs: number) {
  /** Settles (never rejects) when the latest run has ended; null when none is running. */
  let running: Promise<void> | null = null;

  function run(): Promise<T> {
    const next = (running ?? Promise.resolve()).then(task);
    const settled: Promise<void> = next
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => {
        if (running === settled) running = null;
      });
    running = settled;
    return next;
  }

  const timer = setInterval(() => {
    if (running) return;
    run().catch((err: Error) => console.warn(`[${name}] failed:`, err.message));
  }, everyMs);
  timer.unref();

  return {
    run,
    async close(): Promise<void> {
      clearInterval(timer);
      await running;
    },
  };
}
