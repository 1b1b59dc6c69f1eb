import { describe, expect, it } from 'vitest';
import { SessionCache } from './session-cache';

interface Ctx {
  owner: string;
  n: number;
}

/** A cache on a hand-driven clock, trusted (as when the LISTEN connection is up). */
function cacheAt(ttlMs: number, max?: number) {
  const clock = { now: 0 };
  // Offset: lru-cache reads a start time of 0 as "no start recorded".
  const cache = new SessionCache<Ctx>(ttlMs, (v) => v.owner, { max, now: () => 1_000_000 + clock.now });
  cache.trust(true);
  const put = (key: string, n: number, owner = 'u1') => cache.set(key, { owner, n }, cache.begin());
  return { cache, clock, put };
}

describe('SessionCache', () => {
  it('answers a stored value until its time to live (jittered to 80-100%) has passed', () => {
    const { cache, clock, put } = cacheAt(5_000);
    clock.now = 1_000;
    put('k', 1);
    clock.now = 4_999;
    expect(cache.get('k')?.n).toBe(1);
    clock.now = 6_001;
    expect(cache.get('k')).toBeUndefined();
  });

  it('spreads expiries, so entries cached together do not all expire together', () => {
    const { cache, clock, put } = cacheAt(5_000);
    for (let i = 0; i < 200; i++) put(`k${i}`, i);
    clock.now = 4_500;
    let alive = 0;
    for (let i = 0; i < 200; i++) if (cache.get(`k${i}`) !== undefined) alive++;
    // Expiries are uniform over 4,000-5,000 ms, so about half are gone at 4,500 ms.
    expect(alive).toBeGreaterThan(40);
    expect(alive).toBeLessThan(160);
  });

  it('asks for one background refresh per entry once it is past half its time to live', () => {
    const { cache, clock, put } = cacheAt(5_000);
    put('k', 1);
    clock.now = 1_000;
    expect(cache.claimRefresh('k')).toBe(false);
    clock.now = 2_600;
    expect(cache.claimRefresh('k')).toBe(true);
    // Already being refreshed: nobody else starts another lookup, and hits keep being served meanwhile.
    clock.now = 2_700;
    expect(cache.claimRefresh('k')).toBe(false);
    expect(cache.get('k')?.n).toBe(1);
    // The refreshed value starts a new life.
    clock.now = 2_800;
    put('k', 2);
    clock.now = 3_000;
    expect(cache.claimRefresh('k')).toBe(false);
    clock.now = 6_000;
    expect(cache.get('k')?.n).toBe(2);
    expect(cache.claimRefresh('missing')).toBe(false);
  });

  it('forgets a dropped key at once, and may store it again', () => {
    const { cache, put } = cacheAt(5_000);
    put('k', 1);
    cache.drop('k');
    expect(cache.get('k')).toBeUndefined();
    put('k', 2);
    expect(cache.get('k')?.n).toBe(2);
  });

  it('does not store what a lookup read before a revocation (a lookup racing the sign-out)', () => {
    const { cache, put } = cacheAt(5_000);
    put('k', 1);
    const before = cache.begin();
    cache.evict('k');
    expect(cache.get('k')).toBeUndefined();
    expect(cache.set('k', { owner: 'u1', n: 2 }, before)).toBe(false);
    expect(cache.get('k')).toBeUndefined();
    // A lookup that starts after the revocation reads the database's answer and may store it.
    expect(put('k', 3)).toBe(true);
    expect(cache.get('k')?.n).toBe(3);
  });

  it('evicts every session of one user, and only theirs', () => {
    const { cache, put } = cacheAt(5_000);
    put('a1', 1, 'alice');
    put('a2', 2, 'alice');
    put('b1', 3, 'bob');
    const before = cache.begin();
    cache.evictOwner('alice');
    expect(cache.get('a1')).toBeUndefined();
    expect(cache.get('a2')).toBeUndefined();
    expect(cache.get('b1')?.n).toBe(3);
    expect(cache.set('a1', { owner: 'alice', n: 4 }, before)).toBe(false);
  });

  it('answers and stores nothing while untrusted, and starts empty when trusted again', () => {
    const { cache, put } = cacheAt(5_000);
    put('k', 1);
    const before = cache.begin();
    cache.trust(false);
    expect(cache.get('k')).toBeUndefined();
    expect(put('k', 2)).toBe(false);
    expect(cache.claimRefresh('k')).toBe(false);
    cache.trust(true);
    // Nothing from before the outage survives, and a lookup that spanned it is not stored.
    expect(cache.get('k')).toBeUndefined();
    expect(cache.set('k', { owner: 'u1', n: 3 }, before)).toBe(false);
    expect(put('k', 4)).toBe(true);
  });

  it('stores nothing with a time to live of 0 (cache disabled)', () => {
    const { cache, put } = cacheAt(0);
    expect(put('k', 1)).toBe(false);
    expect(cache.get('k')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('evicts the least recently used entries beyond its bound', () => {
    const { cache, put } = cacheAt(60_000, 3);
    for (let i = 0; i < 5; i++) put(`k${i}`, i);
    expect(cache.size).toBe(3);
    expect(cache.get('k0')).toBeUndefined();
    expect(cache.get('k4')?.n).toBe(4);
  });
});
