import { LRUCache } from 'lru-cache';

/**
 * Resolved sessions kept in process memory for a few seconds, so a burst of API calls costs one session lookup
 * instead of one per call (docs/decisions/008-api-throughput.md, 010-session-revocation-notify.md).
 *
 * It is trusted only while revocations reach it: the auth service evicts on every local revocation and on every
 * `session_revoked` notification from another instance, and marks the cache untrusted while the LISTEN connection
 * is down (then every call is looked up, and nothing is stored). The entry's own time to live still bounds what
 * no notification announces (a profile change, a row deleted by hand).
 */
export class SessionCache<V> {
  private readonly lru: LRUCache<string, { value: V; ttl: number; refreshing: boolean }> | null;
  /**
   * Bumped by every eviction and every change of trust. A lookup that read the database before a revocation
   * (its epoch is older) must not store what it read, or the revoked session would be cached again.
   */
  private epoch = 0;
  private trusted = false;

  constructor(
    readonly ttlMs: number,
    private readonly ownerOf: (value: V) => string,
    opts: { max?: number; now?: () => number } = {},
  ) {
    // lru-cache reads a ttl of 0 as "never expires": a disabled cache has no store at all.
    this.lru =
      ttlMs > 0
        ? new LRUCache({
            max: opts.max ?? 10_000,
            ttl: ttlMs,
            allowStale: false,
            updateAgeOnGet: false,
            ...(opts.now ? { perf: { now: opts.now }, ttlResolution: 0 } : {}),
          })
        : null;
  }

  /** Whether revocations are being heard; an untrusted cache answers nothing and stores nothing. */
  trust(trusted: boolean): void {
    this.trusted = trusted;
    this.epoch += 1;
    this.lru?.clear();
  }

  get(key: string): V | undefined {
    return this.trusted ? this.lru?.get(key)?.value : undefined;
  }

  /** Call before reading the database; pass the result to `set`. */
  begin(): number {
    return this.epoch;
  }

  /** Stores unless something was revoked (or trust changed) since `begin`. Returns whether it stored. */
  set(key: string, value: V, since: number): boolean {
    if (!this.lru || !this.trusted || since !== this.epoch) return false;
    // 80-100% of the ttl: sessions cached in the same burst do not all expire, and hit the database, together.
    const ttl = this.ttlMs * (0.8 + 0.2 * Math.random());
    this.lru.set(key, { value, ttl, refreshing: false }, { ttl });
    return true;
  }

  /**
   * Refresh-ahead: true once for an entry past half its time to live, so the caller renews it in the background while
   * hits keep being served from memory. Hot sessions then never expire in a wave that sends every request to the
   * database at once; staleness stays bounded by the time to live as before.
   */
  claimRefresh(key: string): boolean {
    const hit = this.trusted ? this.lru?.get(key) : undefined;
    if (!hit || hit.refreshing || this.lru!.getRemainingTTL(key) > hit.ttl / 2) return false;
    hit.refreshing = true;
    return true;
  }

  /** Drops an entry that went stale (e.g. the session expired); it may be cached again. */
  drop(key: string): void {
    this.lru?.delete(key);
  }

  /** The session was revoked. */
  evict(key: string): void {
    this.epoch += 1;
    this.lru?.delete(key);
  }

  /** Every session of one user was revoked. */
  evictOwner(owner: string): void {
    this.epoch += 1;
    if (!this.lru) return;
    const doomed = [...this.lru.entries()].filter(([, entry]) => this.ownerOf(entry.value) === owner);
    for (const [key] of doomed) this.lru.delete(key);
  }

  get size(): number {
    return this.lru?.size ?? 0;
  }
}
