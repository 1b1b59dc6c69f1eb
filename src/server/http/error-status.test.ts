import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../shared/errors';
import { DomainError } from '../core/domain-error';
import { ERROR_HTTP, sendError } from './error-status';

function answer(err: DomainError) {
  const app = new Hono();
  app.get('/', () => {
    throw err;
  });
  app.onError((e, c) => (e instanceof DomainError ? sendError(c, e.code, e.message, e.details) : c.text('?', 500)));
  return app.request('/');
}

describe('the code -> HTTP table', () => {
  it('gives every stable code an error status, and only internal_error a 5xx', () => {
    for (const code of ERROR_CODES) {
      const { status } = ERROR_HTTP[code];
      expect(status, code).toBeGreaterThanOrEqual(400);
      expect(status >= 500, code).toBe(code === 'internal_error');
    }
  });

  it('answers a DomainError with the envelope and the status of its code', async () => {
    const res = await answer(new DomainError('own_request', "You can't accept your own request."));
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ code: 'own_request', message: "You can't accept your own request." });
  });

  it('turns the wait of a too_many_requests refusal into Retry-After', async () => {
    const res = await answer(new DomainError('too_many_requests', 'Slow down.', { retryAfterSeconds: 42 }));
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('42');
  });
});
