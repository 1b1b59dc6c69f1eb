import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { createApp } from '../app';
import { openDatabase, type Database } from '../db/client';
import { readEnv, type Env } from '../env';
import { loadPlaces } from '../places';
import { createTestDatabase, testListenUrl, testPrepare } from './database';

export const ORIGIN = 'http://localhost';
export const STRONG_PASSWORD = 'Correct-Horse-9';

export interface CallOptions {
  body?: unknown;
  /** A raw body sent as is (for malformed JSON tests). */
  raw?: string;
  /** A multipart/form-data body (file uploads); the boundary header is written by the Request. */
  form?: FormData;
  headers?: Record<string, string>;
  /** Session token sent as the cookie a browser would send. */
  cookie?: string;
  /** Session token sent as `Authorization: Bearer`. */
  bearer?: string;
  origin?: string | null;
  ip?: string;
}

export interface CallResult<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

/** One scratch data directory per test process (the embedded database of a test lives in memory regardless). */
const TEST_DATA_DIR = join(tmpdir(), `rr-test-data-${process.pid}`);

/**
 * Env for tests: the real defaults, with a cheaper argon2 cost so suites run quickly (still argon2id), and no
 * practical write throttle: property tests write hundreds of rows per user (write-throttle.api.test.ts sets one).
 */
export function testEnv(overrides: Record<string, string> = {}): Env {
  return readEnv({
    NODE_ENV: 'test',
    ARGON2_MEMORY_KIB: '1024',
    ARGON2_TIME_COST: '1',
    WRITE_LIMIT_PER_USER_MAX: '1000000',
    // Mails without SMTP_URL are written under DATA_DIR/mail: never into a developer's ./data.
    DATA_DIR: TEST_DATA_DIR,
    ...overrides,
  });
}

type App = ReturnType<typeof createApp>;

/** Sends one request through `app.request()` the way a browser (or API client) would. */
export async function callApp<T = unknown>(
  app: App,
  method: string,
  path: string,
  opts: CallOptions = {},
): Promise<CallResult<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.origin !== null) headers.origin = opts.origin ?? ORIGIN;
  if (opts.cookie) headers.cookie = `rr_session=${opts.cookie}`;
  if (opts.bearer) headers.authorization = `Bearer ${opts.bearer}`;
  let body: string | FormData | undefined;
  if (opts.form !== undefined) body = opts.form;
  else if (opts.raw !== undefined) body = opts.raw;
  else if (opts.body !== undefined) body = JSON.stringify(opts.body);
  if (typeof body === 'string' && !headers['content-type']) headers['content-type'] = 'application/json';
  const res = await app.request(
    `${ORIGIN}/api${path}`,
    { method, headers, body },
    { incoming: { socket: { remoteAddress: opts.ip ?? '127.0.0.1' } } },
  );
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON: keep the text */
  }
  return { status: res.status, body: parsed as T, headers: res.headers };
}

export interface TestAppOptions {
  /** The app's clock (AppOptions.clock): a test moves it to see what happens days later, without waiting. */
  clock?: () => Date;
  /**
   * Load the gazetteer (about 30k places) as a first start does: only for the files that need real places (a
   * second or so); others insert the few place rows they use.
   */
  places?: boolean;
}

/**
 * Boots the real app on a real database for one test file. Requests go through `app.request()`, which runs every
 * middleware; `ip` is delivered the way @hono/node-server delivers the socket address.
 */
export function setupTestApp(envOverrides: Record<string, string> = {}, { clock, places }: TestAppOptions = {}) {
  const ctx = {} as { app: App; database: Database & { url?: string }; env: Env };

  beforeAll(async () => {
    ctx.database = await createTestDatabase();
    if (places) await loadPlaces(ctx.database.db);
    ctx.env = testEnv(envOverrides);
    ctx.app = createApp({ db: ctx.database.db, env: ctx.env, notifications: ctx.database.notifications, clock });
  });
  afterAll(async () => {
    await ctx.app?.close();
    await ctx.database?.close();
  });

  const call = <T = unknown>(method: string, path: string, opts: CallOptions = {}) =>
    callApp<T>(ctx.app, method, path, opts);
  return { ctx, call, ...accountHelpers(call) };
}

/**
 * Two app instances, each with its own connection pool (and so its own caches and listeners), on ONE real
 * PostgreSQL database: what two processes behind a load balancer share. Real PostgreSQL only (DATABASE_URL);
 * callers skip when it is not set. `a` and `b` call one instance each. `clock` is both instances' clock, or one
 * for each (two machines whose clocks disagree).
 */
export function setupTwoInstances(
  envOverrides: Record<string, string> = {},
  { clock }: { clock?: (() => Date) | [() => Date, () => Date] } = {},
) {
  const [clockA, clockB] = Array.isArray(clock) ? clock : [clock, clock];
  const ctx = {} as { apps: [App, App]; databases: [Database, Database]; env: Env };

  beforeAll(async () => {
    const first = await createTestDatabase();
    if (!first.url) throw new Error('setupTwoInstances needs real PostgreSQL (DATABASE_URL)');
    const second = await openDatabase({
      url: first.url,
      dataDir: '',
      prepare: testPrepare(),
      listenUrl: testListenUrl(first.url),
    });
    ctx.databases = [first, second];
    ctx.env = testEnv(envOverrides);
    ctx.apps = [
      createApp({ db: first.db, env: ctx.env, notifications: first.notifications, clock: clockA }),
      createApp({ db: second.db, env: ctx.env, notifications: second.notifications, clock: clockB }),
    ];
  });
  afterAll(async () => {
    await Promise.all(ctx.apps?.map((app) => app.close()) ?? []);
    await ctx.databases?.[1]?.close();
    await ctx.databases?.[0]?.close();
  });

  const a = <T = unknown>(method: string, path: string, opts: CallOptions = {}) =>
    callApp<T>(ctx.apps[0], method, path, opts);
  const b = <T = unknown>(method: string, path: string, opts: CallOptions = {}) =>
    callApp<T>(ctx.apps[1], method, path, opts);
  return { ctx, a, b, ...accountHelpers(a) };
}

type Caller = <T = unknown>(method: string, path: string, opts?: CallOptions) => Promise<CallResult<T>>;

function accountHelpers(call: Caller) {
  let counter = 0;
  /** Creates an account and signs it in; returns its session token and user. */
  async function signUpAndIn(fullName = 'Test Person', ip?: string) {
    counter += 1;
    const email = `user${counter}.${Date.now()}.${Math.random().toString(36).slice(2, 8)}@example.com`;
    const up = await call<{ user: { id: string } }>('POST', '/auth/sign-up', {
      body: { email, password: STRONG_PASSWORD, full_name: fullName, age_confirmed: true },
      ip,
    });
    if (up.status !== 201) throw new Error(`sign-up failed: ${up.status} ${JSON.stringify(up.body)}`);
    // Signed in from the browser that signed up (its browser cookie sent back): no 'new browser' notice.
    const browser = up.headers.get('set-cookie')?.match(/rr_browser=([^;]+)/)?.[1];
    const token = await signIn(email, STRONG_PASSWORD, ip, browser);
    return { email, token, user: up.body.user };
  }

  /** Signs in; without `browser` (an rr_browser cookie value) as a browser the account has not seen. */
  async function signIn(email: string, password: string, ip?: string, browser?: string): Promise<string> {
    const headers = browser ? { cookie: `rr_browser=${browser}` } : undefined;
    const res = await call('POST', '/auth/sign-in', { body: { email, password }, ip, headers });
    const token = res.headers.get('set-cookie')?.match(/rr_session=([^;]+)/)?.[1];
    if (res.status !== 200 || !token) throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(res.body)}`);
    return token;
  }

  return { signUpAndIn, signIn };
}
