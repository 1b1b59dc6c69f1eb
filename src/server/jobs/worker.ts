import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { Notifications } from '../db/notify';
import { preparedStatement } from '../db/prepared';
import { rowsOf } from '../db/result-rows';
import { jobs } from '../db/schema';
import { perTurn } from './per-turn';
import { JOBS_CHANNEL } from './queue';

/** Attempts before a job is kept as 'failed'. */
export const MAX_ATTEMPTS = 8;
/** The first retry waits about this long; each further one twice as long, up to BACKOFF_CAP_MS. */
export const BACKOFF_BASE_MS = 30_000;
export const BACKOFF_CAP_MS = 3_600_000;

/** What a handler knows of the job it runs. */
export interface JobInfo {
  id: number;
  kind: string;
  /** This attempt's number, from 1. */
  attempt: number;
}

/** What a handler may answer instead of finishing: not now, run me again at `deferUntil`. */
export interface JobDeferral {
  deferUntil: Date;
}

/**
 * Runs one job; throwing (or rejecting) schedules a retry. It may run more than once for one job. Resolving with
 * `{ deferUntil }` puts the job back in the queue until then without counting the attempt (a mail that must wait
 * for a throttle is not a failure, and waiting must not use up its tries).
 */
export type JobHandler = (payload: unknown, job: JobInfo) => Promise<void | JobDeferral>;

export interface WorkerOptions {
  /** The clock of claims, leases and retries; tests move it instead of waiting. */
  clock?: () => Date;
  /** Timer wake-ups (besides the NOTIFY after each enqueue); 0 = no timer (tests drive runDue). */
  pollMs: number;
  /** Jobs run at once by this instance. */
  concurrency: number;
  /** How long a claim holds a job: after it, a job whose worker died is claimed again. Above any handler's run. */
  leaseMs: number;
  /** Math.random by default; the jitter of the backoff. */
  random?: () => number;
  /** True while requests wait for a database connection: the worker then runs one job at a time. */
  busy?: () => boolean;
}

/** The wait before the attempt after `attempts` failed ones: 30 s, 60 s, 120 s, ... up to an hour, +-20 %. */
export function backoffMs(attempts: number, random: () => number = Math.random): number {
  const base = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1));
  return Math.round(base * (0.8 + 0.4 * random()));
}

interface Claimed {
  id: number;
  kind: string;
  payload: unknown;
  attempts: number;
}

/**
 * Up to `limit` due jobs, oldest first, skipping those another worker holds (FOR UPDATE SKIP LOCKED), each with its
 * attempt counted and a lease until `until`: the database function rr_jobs_claim (migration 0043; since 0048 it
 * updates the rows it picked by their key, whatever the size of the table).
 */
const claimStatement = preparedStatement(
  'jobs_claim',
  () =>
    sql`select id::float8 as id, kind, payload, attempts from rr_jobs_claim(${sql.placeholder('now')}::timestamptz, ${sql.placeholder('until')}::timestamptz, ${sql.placeholder('limit')}::int)`,
);

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 2000);

/**
 * The job worker of one app instance (docs/decisions/020-jobs-and-mail.md). A claim is one short statement:
 * the due jobs locked FOR UPDATE SKIP LOCKED (another instance's claim is skipped, never waited for), their
 * attempts bumped and a lease set. The handler runs after that commit, outside any transaction; then the job is
 * marked sent (the jobs that ended in the same turn of the event loop in one statement), or scheduled again with
 * backoff, or kept as failed after MAX_ATTEMPTS. Each finishing update is fenced by the attempt number, so a worker
 * whose lease ran out cannot overwrite a later claim's outcome.
 */
export function createJobWorker(db: Db, notifications: Notifications | undefined, opts: WorkerOptions) {
  const clock = opts.clock ?? (() => new Date());
  const random = opts.random ?? Math.random;
  const handlers = new Map<string, JobHandler>();
  const inFlight = new Set<Promise<void>>();
  let closed = false;
  /** The drain running now (settles, never rejects); null when idle. */
  let draining: Promise<number> | null = null;
  /** A wake-up came during a drain: drain again after it. */
  let again = false;
  /** Claim statements run, those that took at least one job, and the jobs they took (stats()). */
  const counts = { statements: 0, claims: 0, claimed: 0 };

  /** One statement: the due jobs' claim (rr_jobs_claim, migration 0043), prepared once per connection. */
  async function claim(limit: number): Promise<Claimed[]> {
    const now = clock();
    return rowsOf<Claimed>(
      await claimStatement(db, {
        now: now.toISOString(),
        until: new Date(now.getTime() + opts.leaseMs).toISOString(),
        limit,
      }),
    );
  }

  const mine = (job: Claimed) =>
    and(eq(jobs.id, job.id), eq(jobs.attempts, job.attempts), sql`${jobs.status} = 'queued'`);

  async function run(job: Claimed): Promise<void> {
    let outcome: void | JobDeferral;
    try {
      const handler = handlers.get(job.kind);
      if (!handler) throw new Error(`no handler for job kind '${job.kind}'`);
      outcome = await handler(job.payload, { id: job.id, kind: job.kind, attempt: job.attempts });
    } catch (err) {
      const failed = job.attempts >= MAX_ATTEMPTS;
      const message = errorText(err);
      await db
        .update(jobs)
        .set(
          failed
            ? { status: 'failed', lastError: message, lockedUntil: null, finishedAt: clock() }
            : {
                lastError: message,
                lockedUntil: null,
                runAt: new Date(clock().getTime() + backoffMs(job.attempts, random)),
              },
        )
        .where(mine(job));
      const next = failed ? 'kept as failed' : 'will retry';
      console.warn(`[jobs] ${job.kind} job ${job.id} attempt ${job.attempts} failed (${next}): ${message}`);
      return;
    }
    if (outcome?.deferUntil) {
      // Queued again as if this claim had not happened: the claim's attempt is given back.
      await db
        .update(jobs)
        .set({ attempts: sql`${jobs.attempts} - 1`, lockedUntil: null, runAt: outcome.deferUntil })
        .where(mine(job));
      return;
    }
    await markSent({ job, at: clock() });
  }

  /**
   * Marks `job` sent together with every job whose handler ended in the same turn of the event loop: one statement
   * for all of them (a chosen driver's three e-mails, say) instead of one each, fenced per job by its attempt as
   * `mine` does. Resolves once written; a job whose mark is lost with its process runs again (at-least-once).
   */
  const markSent = perTurn(async (batch: { job: Claimed; at: Date }[]) => {
    const done = sql.join(
      batch.map(({ job, at }) => sql`(${job.id}::bigint, ${job.attempts}::int, ${at.toISOString()}::timestamptz)`),
      sql`, `,
    );
    await db.execute(sql`
      update ${jobs} set status = 'sent', locked_until = null, finished_at = done.finished_at
      from (values ${done}) as done (id, attempts, finished_at)
      where ${jobs.id} = done.id and ${jobs.attempts} = done.attempts and ${jobs.status} = 'queued'`);
  });

  /**
   * While jobs run, a claim waits for half the slots to be free, so one statement claims several jobs (under a
   * backlog, a claim per finished job was one statement per job); with none running, one free slot is enough.
   */
  const claimAtLeast = Math.max(1, Math.ceil(opts.concurrency / 2));

  /**
   * Claims and runs due jobs, at most `concurrency` at once, until none is due. Returns how many it ran. Once a claim
   * finds fewer due jobs than free slots, nothing more is due until a wake-up (a NOTIFY of an enqueue, or the timer for
   * retries and deferrals): the drain claims again only after one, instead of after every job that ends.
   */
  async function drain(): Promise<number> {
    let ran = 0;
    let exhausted = false;
    for (;;) {
      if (exhausted && again) {
        again = false;
        exhausted = false;
      }
      const free = (opts.busy?.() ? 1 : opts.concurrency) - inFlight.size;
      if (closed || exhausted || free < (inFlight.size ? claimAtLeast : 1)) {
        if (!inFlight.size) return ran;
        await Promise.race(inFlight);
        continue;
      }
      const claimed = await claim(free);
      counts.statements += 1;
      ran += claimed.length;
      if (claimed.length) {
        counts.claims += 1;
        counts.claimed += claimed.length;
      }
      for (const job of claimed) {
        const task: Promise<void> = run(job)
          .catch((err) => console.warn(`[jobs] could not record the outcome of job ${job.id}:`, errorText(err)))
          .finally(() => inFlight.delete(task));
        inFlight.add(task);
      }
      if (claimed.length < free) exhausted = true;
    }
  }

  /** Runs a drain after the current one (if any); drains of one instance never overlap. */
  function runDue(): Promise<number> {
    const previous = draining ?? Promise.resolve(0);
    const run = previous.then(() => drain());
    const settled = run.catch((err: Error) => {
      console.warn('[jobs] claiming jobs failed:', err.message);
      return 0;
    });
    draining = settled;
    void settled.finally(() => {
      if (draining !== settled) return;
      draining = null;
      if (again) {
        again = false;
        wake();
      }
    });
    return run;
  }

  /** A NOTIFY or the timer: drain now, or once more after the drain in progress (it may have missed the job). */
  function wake(): void {
    if (closed) return;
    if (draining) again = true;
    else void runDue().catch(() => {});
  }

  const unsubscribe = notifications?.listen(JOBS_CHANNEL, wake, (up) => up && wake());
  const timer = opts.pollMs > 0 ? setInterval(wake, opts.pollMs) : undefined;
  timer?.unref();

  return {
    /** Registers the handler of a job kind (one per kind). */
    register(kind: string, handler: JobHandler): void {
      if (handlers.has(kind)) throw new Error(`job kind '${kind}' already has a handler`);
      handlers.set(kind, handler);
    },
    /** Claims and runs every due job now, after any run in progress (tests); resolves with how many it ran. */
    runDue,
    /** Claim statements run, those that took jobs, and how many jobs they took, since this worker started. */
    stats: () => ({ ...counts }),
    /** Nudges the worker as a NOTIFY would. */
    wake,
    /** Stops claiming, stops the timer and the listener, and waits for the jobs in flight to finish. */
    async close(): Promise<void> {
      closed = true;
      if (timer) clearInterval(timer);
      await unsubscribe?.();
      await draining;
      await Promise.allSettled(inFlight);
    },
  };
}

export type JobWorker = ReturnType<typeof createJobWorker>;
