import { describe, expect, it } from 'vitest';
import { SessionCache } from './session-cache';

describe('SessionCache', () => {
  it('answers a stored value until its time to live (jittered to 80-100%) has passed', () => {
    const cache = new SessionCache<string>(5_000);
    cache.set('k', 'v', 1_000);
    expect(cache.get('k', 4_999)).toBe('v');
    expect(cache.get('k', 6_000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('asks for one background refresh per entry once it is past half its time to live', () => {
    const cache = new SessionCache<string>(5_000);
    cache.set('k', 'v', 0);
    expect(cache.claimRefresh('k', 1_000)).toBe(false);
    expect(cache.claimRefresh('k', 2_600)).toBe(true);
    // Already being refreshed: nobody else starts another lookup, and hits keep being served meanwhile.
    expect(cache.claimRefresh('k', 2_700)).toBe(false);
    expect(cache.get('k', 2_700)).toBe('v');
    // The refreshed value starts a new life.
    cache.set('k', 'v2', 2_800);
    expect(cache.claimRefresh('k', 3_000)).toBe(false);
    expect(cache.get('k', 6_000)).toBe('v2');
    expect(cache.claimRefresh('missing', 9_000)).toBe(false);
  });

  it('spreads expiries, so entries cached together do not all expire together', () => {
    const cache = new SessionCache<number>(5_000);
    for (let i = 0; i < 200; i++) cache.set(`k${i}`, i, 0);
    let alive = 0;
    for (let i = 0; i < 200; i++) if (cache.get(`k${i}`, 4_500) !== undefined) alive++;
    // Expiries are uniform over 4,000-5,000 ms, so about half are gone at 4,500 ms.
    expect(alive).toBeGreaterThan(40);
    expect(alive).toBeLessThan(160);
  });

  it('forgets a dropped key at once, and may store it again', () => {
    const cache = new SessionCache<string>(5_000);
    cache.set('k', 'v');
    cache.drop('k');
    expect(cache.get('k')).toBeUndefined();
    cache.set('k', 'w');
    expect(cache.get('k')).toBe('w');
  });

  it('refuses to store a revoked key again for one ttl (a lookup racing the sign-out)', () => {
    const cache = new SessionCache<string>(5_000);
    cache.set('k', 'v', 1_000);
    cache.revoke('k', 2_000);
    expect(cache.get('k', 2_000)).toBeUndefined();
    cache.set('k', 'stale', 2_500);
    expect(cache.get('k', 2_500)).toBeUndefined();
    cache.set('k', 'later', 7_000);
    expect(cache.get('k', 7_000)).toBe('later');
  });

  it('stores nothing with a time to live of 0 (cache disabled)', () => {
    const cache = new SessionCache<string>(0);
    cache.set('k', 'v');
    expect(cache.get('k')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('evicts the oldest entries beyond its bound', () => {
    const cache = new SessionCache<number>(60_000, 3);
    for (let i = 0; i < 5; i++) cache.set(`k${i}`, i);
    expect(cache.size).toBe(3);
    expect(cache.get('k0')).toBeUndefined();
    expect(cache.get('k4')).toBe(4);
  });
});
