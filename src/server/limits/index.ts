// The limits feature's public module: what other features may import (docs/decisions/015). The write throttle
// (middleware.ts) is HTTP-facing and wired by app.ts alone; the routes whose write counts it in its own statement take
// its type.
export {
  createAttemptCounter,
  type AttemptCounter,
  type CountAnswer,
  type Hit,
  type WindowLimit,
} from './attempt-counter';
export { enforceLimit, foldLimits, tooManyMessage, tooManyRequests, type FoldedLimits, type LimitHit } from './enforce';
export type { WriteThrottle } from './middleware';
