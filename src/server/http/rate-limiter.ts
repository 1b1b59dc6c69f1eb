import type { MiddlewareHandler } from 'hono';
import type { AttemptCounter, Hit, WindowLimit } from '../limits/attempt-counter';
import { AppError } from './app-error';
import { currentAuth } from './session';
import type { AppEnv } from './types';

/** The HTTP side of the attempt counters (limits/attempt-counter.ts): 429 answers and the write throttle. */

export function tooManyMessage(retryAfterSeconds: number): string {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return minutes <= 1
    ? 'Too many attempts. Please wait a minute and try again.'
    : `Too many attempts. Please wait ${minutes} minutes and try again.`;
}

export const WRITE_THROTTLE_MESSAGE = "You're doing that too often. Please wait a moment.";

export function tooManyRequests(message: string, retryAfterSeconds: number): AppError {
  return new AppError(429, 'too_many_requests', message, { 'Retry-After': String(retryAfterSeconds) });
}

/** Counts one hit for `subject`; over the limit it throws 429 with Retry-After, worded by `message`. */
export async function enforceLimit(
  counter: AttemptCounter,
  scope: string,
  subject: string,
  limit: WindowLimit,
  message: (retryAfterSeconds: number) => string,
): Promise<Hit> {
  const hit = await counter.hit(scope, subject, limit);
  if (!hit.allowed) throw tooManyRequests(message(hit.retryAfterSeconds), hit.retryAfterSeconds);
  return hit;
}

/**
 * Per-user throttle for write endpoints, set generously (a person never meets it; a script does). It runs after
 * requireAuth and before validation and the handler, so a refused call stores nothing. Every write it guards
 * shares one allowance per user: add it as a route's `middleware` to guard a new write endpoint.
 */
export function writeThrottle(counter: AttemptCounter, limit: WindowLimit): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await enforceLimit(counter, 'write', currentAuth(c).user.id, limit, () => WRITE_THROTTLE_MESSAGE);
    await next();
  };
}
