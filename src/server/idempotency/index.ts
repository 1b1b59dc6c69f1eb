// Idempotent writes (src/shared/idempotency.ts): the middleware app.ts puts before every /api route, and
// the store with its hourly sweep of expired keys.
export { idempotency, type IdempotencyOptions } from './middleware';
export { CLAIM_LEASE_MS, createIdempotencyStore, type IdempotencyStore } from './store';
