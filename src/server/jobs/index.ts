// The background jobs feature's public module (docs/decisions/020-jobs-and-mail.md): features enqueue jobs inside
// their own transaction; app.ts creates the worker and registers each kind's handler.
export { perTurn } from './per-turn';
export { enqueue, forgetPayload, JOBS_CHANNEL, payloadForgotten, type NewJob } from './queue';
export {
  backoffMs,
  createJobWorker,
  MAX_ATTEMPTS,
  type JobDeferral,
  type JobHandler,
  type JobInfo,
  type JobWorker,
  type WorkerOptions,
} from './worker';
