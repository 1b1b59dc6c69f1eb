import { createHash } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import type { StatusCode } from 'hono/utils/http-status';
import {
  IDEMPOTENCY_ANSWER_NOT_KEPT,
  IDEMPOTENCY_HEADER,
  IDEMPOTENCY_IN_PROGRESS,
  IDEMPOTENCY_KEY_INVALID,
  IDEMPOTENCY_KEY_PATTERN,
  IDEMPOTENCY_KEY_REUSED,
  IDEMPOTENT_REPLAY_HEADER,
} from '../../shared/idempotency';
import { DomainError } from '../core/domain-error';
import type { AppEnv } from '../http/types';
import type { IdempotencyStore, StoredAnswer } from './store';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/**
 * Answers that must not be kept: the request may succeed when repeated (signed out, 'Confirm it's you' first,
 * throttled, timed out, our failure), or the answer sets a cookie (a session token is never stored or replayed).
 */
const RETRYABLE = new Set([401, 403, 408, 429]);
const worthKeeping = (res: Response) =>
  res.status < 500 && !RETRYABLE.has(res.status) && !res.headers.has('set-cookie');
const NO_BODY = new Set([204, 205, 304]);
/** What a key keeps instead of an answer shown once (http/sensitive.ts `shownOnce`): the secret is never stored. */
const NOT_KEPT: StoredAnswer = {
  status: 409,
  contentType: 'application/json',
  body: JSON.stringify({ code: 'idempotency_answer_not_kept', message: IDEMPOTENCY_ANSWER_NOT_KEPT }),
};

export interface IdempotencyOptions {
  /** How long a repeat waits for the first request with its key to finish before answering 409. */
  waitMs?: number;
  pollMs?: number;
  /**
   * The check a sensitive route makes ('Confirm it's you' within the last minutes): a repeat of such a request runs
   * it before anything of the first answer is sent back (it throws when the check is due).
   */
  recheck?: (c: Context<AppEnv>) => Promise<void>;
}

/**
 * What makes two requests "the same": method, path with query, media type and body. A multipart body's boundary
 * is chosen anew by the browser for every send of the same form, so it is left out of the hash.
 */
async function fingerprintOf(c: Context<AppEnv>): Promise<string> {
  const url = new URL(c.req.url);
  const type = c.req.header('content-type') ?? '';
  const hash = createHash('sha256').update(`${c.req.method} ${url.pathname}${url.search}\n${type.split(';')[0]}\n`);
  const body = Buffer.from(await c.req.arrayBuffer());
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (boundary) {
    for (const part of body.toString('latin1').split(boundary)) hash.update(part, 'latin1');
  } else hash.update(body);
  return hash.digest('hex');
}

function replay(c: Context<AppEnv>, answer: StoredAnswer): Response {
  c.header(IDEMPOTENT_REPLAY_HEADER, 'true');
  if (answer.contentType) c.header('Content-Type', answer.contentType);
  return c.newResponse(NO_BODY.has(answer.status) ? null : answer.body, answer.status as StatusCode);
}

/**
 * Every signed-in unsafe request with an `Idempotency-Key` runs at most once per person and key within
 * IDEMPOTENCY_TTL_HOURS: the first claims the key in PostgreSQL (so across instances), runs, and keeps its answer;
 * a repeat gets that answer back (a repeat that arrives while the first still runs waits for it). An answer that
 * holds a secret is not kept (the repeat gets 409 'idempotency_answer_not_kept'), and a repeat of a sensitive
 * route's request runs the route's identity check before it gets anything. Signed-out
 * requests (sign-in, sign-up, contact) run as usual: there is no person to keep a key for, and their answers set
 * session cookies or hold nothing worth repeating.
 */
export function idempotency(store: IdempotencyStore, options: IdempotencyOptions = {}): MiddlewareHandler<AppEnv> {
  const { waitMs = 10_000, pollMs = 25, recheck } = options;
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method)) return next();
    const key = c.req.header(IDEMPOTENCY_HEADER);
    if (key === undefined) return next();
    if (!IDEMPOTENCY_KEY_PATTERN.test(key)) throw new DomainError('validation_error', IDEMPOTENCY_KEY_INVALID);
    const auth = c.get('auth');
    if (!auth) return next();
    const userId = auth.user.id;
    const fingerprint = await fingerprintOf(c);

    const deadline = Date.now() + waitMs;
    for (;;) {
      const claim = await store.claim(userId, key, fingerprint);
      if (claim.kind === 'claimed') break;
      if (claim.kind === 'answer') {
        if (claim.answer.recheck) await recheck?.(c);
        return replay(c, claim.answer);
      }
      if (claim.kind === 'reused') throw new DomainError('idempotency_key_reused', IDEMPOTENCY_KEY_REUSED);
      if (Date.now() >= deadline) throw new DomainError('idempotency_in_progress', IDEMPOTENCY_IN_PROGRESS);
      await new Promise((r) => setTimeout(r, pollMs));
    }

    try {
      await next();
    } catch (err) {
      await store.release(userId, key, fingerprint);
      throw err;
    }
    const res = c.res;
    if (!worthKeeping(res)) return store.release(userId, key, fingerprint);
    const recheckFirst = c.get('sensitive') === true;
    await store.keep(
      userId,
      key,
      fingerprint,
      c.get('shownOnce')
        ? { ...NOT_KEPT, recheck: recheckFirst }
        : {
            status: res.status,
            contentType: res.headers.get('content-type'),
            body: await res.clone().text(),
            recheck: recheckFirst,
          },
    );
  };
}
