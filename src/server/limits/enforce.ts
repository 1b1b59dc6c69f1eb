import { DomainError } from '../core/domain-error';
import type { AttemptCounter, CountAnswer, Hit, WindowLimit } from './attempt-counter';

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

/**
 * One allowance a request uses: counted in `scope` for `subject` (a hit, or with `check` only whether one more would
 * pass, counting nothing), and the error its refusal answers.
 */
export interface LimitHit {
  scope: string;
  subject: string;
  limit: WindowLimit;
  check?: boolean;
  refuse: (retryAfterSeconds: number) => DomainError;
}

/**
 * Hits a write counts inside its own statement (the database function it calls runs rr_count_hits first, migration
 * 0044), instead of a statement each before it: the same counts, one round trip fewer per hit.
 */
export interface FoldedLimits {
  /** The function's p_hits argument. */
  json: string;
  /** The error an answer of rr_count_hits means (the refused hit's), or null when every hit passed. */
  refusal(answer: CountAnswer): DomainError | null;
}

/** `hits` in order, as one write's statement counts them: it stops at the first one over its allowance. */
export function foldLimits(counter: AttemptCounter, hits: LimitHit[]): FoldedLimits {
  const json = JSON.stringify(hits.map((h) => counter.hitArgument(h.scope, h.subject, h.limit, h.check ? 0 : 1)));
  return {
    json,
    refusal(answer) {
      const refused = answer.refused === null ? undefined : hits[answer.refused];
      if (!refused) return null;
      return refused.refuse(Number(answer.retry_after));
    },
  };
}
