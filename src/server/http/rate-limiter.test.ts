import { describe, expect, it } from 'vitest';
import { SlidingWindowLimiter, tooManyMessage } from './rate-limiter';

describe('SlidingWindowLimiter', () => {
  it('allows max hits per window, then tells how long to wait', () => {
    const l = new SlidingWindowLimiter(3, 60_000);
    const t0 = 1_000_000;
    for (let i = 0; i < 3; i++) {
      expect(l.retryAfter('k', t0 + i)).toBe(0);
      l.record('k', t0 + i);
    }
    expect(l.retryAfter('k', t0 + 10)).toBe(60);
    expect(l.retryAfter('other', t0 + 10)).toBe(0);
    // The oldest hit leaves the window after 60 s.
    expect(l.retryAfter('k', t0 + 60_001)).toBe(0);
  });

  it('forgets a key on reset and bounds its memory', () => {
    const l = new SlidingWindowLimiter(1, 60_000, 10);
    l.record('a');
    l.reset('a');
    expect(l.retryAfter('a')).toBe(0);
    for (let i = 0; i < 50; i++) l.record(`ip${i}`);
    l.prune();
    expect((l as unknown as { hits: Map<string, unknown> }).hits.size).toBeLessThanOrEqual(10);
  });

  it('words the wait in minutes', () => {
    expect(tooManyMessage(30)).toBe('Too many attempts. Please wait a minute and try again.');
    expect(tooManyMessage(14 * 60 + 5)).toBe('Too many attempts. Please wait 15 minutes and try again.');
  });
});
