/**
 * Resolved sessions kept in process memory for a few seconds, so a burst of API calls costs one session lookup
 * instead of one per call (docs/decisions/008-api-throughput.md). Exact for everything this process does: the auth
 * service drops an entry when it revokes the session, and expiry is re-checked against the cached times on every
 * hit. Bounded: the oldest entries go first when it is full.
 */
export class SessionCache<V> {
  private readonly entries = new Map<string, { value: V; storedAt: number; ttlMs: number; refreshing?: boolean }>();
  /** Keys revoked within the last ttl: a lookup that started before the revocation must not cache it again. */
  private readonly revoked = new Map<string, number>();

  constructor(
    readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get(key: string, now = Date.now()): V | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (now - hit.storedAt >= hit.ttlMs) {
      this.entries.delete(key);
      return undefined;
    }
    return hit.value;
  }

  set(key: string, value: V, now = Date.now()): void {
    if (this.ttlMs <= 0) return;
    const revokedAt = this.revoked.get(key);
    if (revokedAt !== undefined && now - revokedAt < this.ttlMs) return;
    this.entries.delete(key);
    // 80-100% of the ttl: sessions cached in the same burst do not all expire, and hit the database, together.
    this.entries.set(key, { value, storedAt: now, ttlMs: this.ttlMs * (0.8 + 0.2 * Math.random()) });
    // Map iteration follows insertion order: the first keys are the oldest.
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries) break;
      this.entries.delete(oldest);
    }
  }

  /**
   * Refresh-ahead: true once for an entry past half its time to live, so the caller renews it in the background while
   * hits keep being served from memory. Hot sessions then never expire in a wave that sends every request to the
   * database at once; staleness stays bounded by the time to live as before.
   */
  claimRefresh(key: string, now = Date.now()): boolean {
    const hit = this.entries.get(key);
    if (!hit || hit.refreshing || now - hit.storedAt < hit.ttlMs / 2) return false;
    hit.refreshing = true;
    return true;
  }

  /** Drops an entry that went stale (e.g. the session expired); it may be cached again. */
  drop(key: string): void {
    this.entries.delete(key);
  }

  /** The session was revoked: drop it and refuse to store it again for one ttl. */
  revoke(key: string, now = Date.now()): void {
    this.entries.delete(key);
    if (this.ttlMs <= 0) return;
    this.revoked.set(key, now);
    for (const [k, at] of this.revoked) {
      if (now - at < this.ttlMs && this.revoked.size <= this.maxEntries) break;
      this.revoked.delete(k);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
