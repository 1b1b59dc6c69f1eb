import { DomainError } from '../core/domain-error';
import type { AttemptCounter, Hit, WindowLimit } from './attempt-counter';

/** Refusals of the attempt counters: `too_many_requests` with the wait (the HTTP layer makes it Retry-After). */

export function tooManyMessage(retryAfterSeconds: number): string {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return minutes <= 1
    ? 'Too many attempts. Please wait a minute and try again.'
    : `Too many attempts. Please wait ${minutes} minutes and try again.`;
}

export function tooManyRequests(message: string, retryAfterSeconds: number): DomainError {
  return new DomainError('too_many_requests', message, { retryAfterSeconds });
}

/** Counts one hit for `subject`; over the limit it throws `too_many_requests`, worded by `message`. */
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
