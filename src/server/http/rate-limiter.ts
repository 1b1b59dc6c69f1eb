/**
 * Sliding-window counter kept in process memory. One RuralRoute process serves the API (PGlite allows no other),
 * so this is exact for the default deployment; see docs/decisions/002-in-memory-rate-limits.md.
 */
export class SlidingWindowLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    readonly max: number,
    readonly windowMs: number,
    private readonly maxKeys = 100_000,
  ) {}

  private live(key: string, now: number): number[] {
    const list = (this.hits.get(key) ?? []).filter((t) => t > now - this.windowMs);
    if (list.length) this.hits.set(key, list);
    else this.hits.delete(key);
    return list;
  }

  /** Seconds until another hit is allowed, or 0 when one is allowed now. */
  retryAfter(key: string, now = Date.now()): number {
    const list = this.live(key, now);
    if (list.length < this.max) return 0;
    const oldest = list[list.length - this.max] ?? now;
    return Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000));
  }

  record(key: string, now = Date.now()): void {
    const list = this.live(key, now);
    list.push(now);
    this.hits.set(key, list);
    if (this.hits.size > this.maxKeys) this.prune(now);
  }

  reset(key: string): void {
    this.hits.delete(key);
  }

  prune(now = Date.now()): void {
    for (const key of [...this.hits.keys()]) this.live(key, now);
    // Still too many distinct keys (a flood of addresses): drop the oldest entries rather than grow without bound.
    const excess = this.hits.size - this.maxKeys;
    if (excess > 0) [...this.hits.keys()].slice(0, excess).forEach((k) => this.hits.delete(k));
  }
}

export function tooManyMessage(retryAfterSeconds: number): string {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return minutes <= 1
    ? 'Too many attempts. Please wait a minute and try again.'
    : `Too many attempts. Please wait ${minutes} minutes and try again.`;
}
