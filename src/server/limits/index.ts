// The limits feature's public module: what other features may import (docs/decisions/015). The write throttle
// (middleware.ts) is HTTP-facing and wired by app.ts alone.
export { createAttemptCounter, type AttemptCounter, type Hit, type WindowLimit } from './attempt-counter';
export { enforceLimit, tooManyMessage, tooManyRequests } from './enforce';
