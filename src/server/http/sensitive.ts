import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './types';

/**
 * What a route tells the idempotency middleware (idempotency/middleware.ts) about its requests, in its middleware
 * list. `sensitive`: it asks for a recent identity check ('Confirm it's you', a password field), so a repeat of one
 * of its requests with the same Idempotency-Key runs that check before anything is replayed. `shownOnce`: its answer
 * holds a secret shown once (recovery codes, a two-factor set-up key), so the answer is never stored: a repeat is
 * told it was done (409 'idempotency_answer_not_kept'). A route shown once is sensitive too.
 */
export const sensitive: MiddlewareHandler<AppEnv> = async (c, next) => {
  c.set('sensitive', true);
  await next();
};

export const shownOnce: MiddlewareHandler<AppEnv> = async (c, next) => {
  c.set('sensitive', true);
  c.set('shownOnce', true);
  await next();
};
