import type { MiddlewareHandler } from 'hono';
import { currentAuth } from '../http/session';
import type { AppEnv } from '../http/types';
import type { AttemptCounter, WindowLimit } from './attempt-counter';
import { enforceLimit } from './enforce';

export const WRITE_THROTTLE_MESSAGE = "You're doing that too often. Please wait a moment.";

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
