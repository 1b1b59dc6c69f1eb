import { describe, expect, it } from 'vitest';
import { tooManyMessage, tooManyRequests } from './rate-limiter';

describe('429 answers', () => {
  it('word the wait in minutes', () => {
    expect(tooManyMessage(30)).toBe('Too many attempts. Please wait a minute and try again.');
    expect(tooManyMessage(14 * 60 + 5)).toBe('Too many attempts. Please wait 15 minutes and try again.');
  });

  it('carry the stable code and Retry-After in seconds', () => {
    const err = tooManyRequests('Slow down.', 42);
    expect(err).toMatchObject({ status: 429, code: 'too_many_requests', message: 'Slow down.' });
    expect(err.headers).toEqual({ 'Retry-After': '42' });
  });
});
