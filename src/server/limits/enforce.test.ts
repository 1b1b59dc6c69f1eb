import { describe, expect, it } from 'vitest';
import { tooManyMessage, tooManyRequests } from './enforce';

describe('too_many_requests refusals', () => {
  it('word the wait in minutes', () => {
    expect(tooManyMessage(30)).toBe('Too many attempts. Please wait a minute and try again.');
    expect(tooManyMessage(14 * 60 + 5)).toBe('Too many attempts. Please wait 15 minutes and try again.');
  });

  it('carry the stable code and the wait in seconds, and no HTTP status', () => {
    const err = tooManyRequests('Slow down.', 42);
    expect(err).toMatchObject({ code: 'too_many_requests', message: 'Slow down.' });
    expect(err.details).toEqual({ retryAfterSeconds: 42 });
    expect(err).not.toHaveProperty('status');
  });
});
