import type { MiddlewareHandler } from 'hono';
import { currentAuth } from '../http/session';
import type { AppEnv } from '../http/types';
import type { AttemptCounter, WindowLimit } from './attempt-counter';
import { foldLimits, tooManyRequests, type FoldedLimits, type LimitHit } from './enforce';

export const WRITE_THROTTLE_MESSAGE = "You're doing that too often. Please wait a moment.";

/**
 * The write throttle as a route's middleware, and `folded` for a write whose own statement counts the hit (the hot
 * writes: an offer, a message, a booking's moves), one round trip fewer: the same allowance either way.
 */
export type WriteThrottle = MiddlewareHandler<AppEnv> & {
  /** The user's write hit, then `more` hits, to count in the write's own statement (limits/enforce.ts). */
  folded(userId: string, ...more: LimitHit[]): FoldedLimits;
};

/**
 * Per-user throttle for write endpoints, set generously (a person never meets it; a script does). As middleware it
 * runs after requireAuth and before validation and the handler, so a refused call stores nothing. Every write it
 * guards shares one allowance per user: add it as a route's `middleware` to guard a new write endpoint, or pass
 * `folded(...)` to a write that counts it in its own statement, before any other write and any lock of its own.
 */
export function writeThrottle(counter: AttemptCounter, limit: WindowLimit): WriteThrottle {
  const hitOf = (userId: string): LimitHit => ({
    scope: 'write',
    subject: userId,
    limit,
    refuse: (retryAfterSeconds) => tooManyRequests(WRITE_THROTTLE_MESSAGE, retryAfterSeconds),
  });
  const middleware: MiddlewareHandler<AppEnv> = async (c, next) => {
    const { scope, subject, refuse } = hitOf(currentAuth(c).user.id);
    const counted = await counter.hit(scope, subject, limit);
    if (!counted.allowed) throw refuse(counted.retryAfterSeconds);
    await next();
  };
  return Object.assign(middleware, {
    folded: (userId: string, ...more: LimitHit[]) => foldLimits(counter, [hitOf(userId), ...more]),
  });
}
