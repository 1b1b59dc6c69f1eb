import { connect, constants } from 'node:http2';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import journal from './db/migrations/meta/_journal.json';
import { STRONG_PASSWORD } from './test/harness';
import { requestBody } from './test/marketplace';

/**
 * Cross-instance behaviour over real HTTP: two built app instances on one PostgreSQL behind nginx (round robin),
 * started by scripts/with-cluster.sh, which exports the URLs. Skipped without them (a plain `npm test`).
 */
const proxy = process.env.CLUSTER_PROXY_URL;
const instances = (process.env.CLUSTER_INSTANCE_URLS ?? '').split(',').filter(Boolean);

interface Answer<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

async function call<T = unknown>(
  base: string,
  method: string,
  path: string,
  opts: { token?: string; body?: unknown } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = {};
  // A browser sends its page's origin with every unsafe request (http/csrf.ts checks it).
  if (method !== 'GET') headers.origin = new URL(base).origin;
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${base}/api${path}`, {
    method,
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T, headers: res.headers };
}

let accounts = 0;
async function signUp(base = proxy!) {
  accounts += 1;
  const email = `cluster${accounts}.${Date.now()}@example.com`;
  const up = await call(base, 'POST', '/auth/sign-up', {
    body: { email, password: STRONG_PASSWORD, full_name: `Cluster Person ${accounts}`, age_confirmed: true },
  });
  expect(up.status).toBe(201);
  return email;
}

async function signIn(email: string, base = proxy!): Promise<string> {
  const res = await call(base, 'POST', '/auth/sign-in', { body: { email, password: STRONG_PASSWORD } });
  expect(res.status).toBe(200);
  // The cookie's name depends on NODE_ENV (`__Host-` prefix in production); the token is what counts.
  const token = res.headers.get('set-cookie')?.match(/rr_session=([^;]+)/)?.[1];
  expect(token).toBeDefined();
  return token!;
}

describe.skipIf(!proxy)('two instances behind nginx on one PostgreSQL (scripts/with-cluster.sh)', () => {
  const db = new pg.Pool({ connectionString: process.env.CLUSTER_DATABASE_URL, max: 2 });
  afterAll(() => db.end());

  it('both instances came up together on the empty database, which was migrated once, and serve the app', async () => {
    expect(instances).toHaveLength(2);
    for (const base of instances) {
      expect((await fetch(`${base}/api/health`)).status).toBe(200);
      const home = await fetch(`${base}/`);
      expect(home.status).toBe(200);
      expect(home.headers.get('content-type')).toContain('text/html');
    }
    const applied = await db.query('SELECT hash FROM drizzle.__drizzle_migrations');
    expect(applied.rowCount).toBe(journal.entries.length);
  });

  it('nginx speaks HTTP/2 over TLS to browsers (docs/deploy.md), the app behind it unchanged', async () => {
    expect(new URL(proxy!).protocol).toBe('https:');
    // The test certificate is trusted through NODE_EXTRA_CA_CERTS (scripts/with-cluster.sh).
    const session = connect(proxy!);
    try {
      await new Promise<void>((resolve, reject) => session.once('connect', () => resolve()).once('error', reject));
      expect(session.alpnProtocol).toBe('h2');
      const answer = (path: string) =>
        new Promise<{ status: number; type: string }>((resolve, reject) => {
          const stream = session.request({ [constants.HTTP2_HEADER_PATH]: path });
          stream.on('response', (h) =>
            resolve({ status: Number(h[constants.HTTP2_HEADER_STATUS]), type: String(h['content-type']) }),
          );
          stream.on('error', reject);
          stream.resume();
        });
      // Several requests at once on the one connection: the page and its API.
      const [home, health] = await Promise.all([answer('/'), answer('/api/health')]);
      expect(home).toEqual({ status: 200, type: expect.stringContaining('text/html') });
      expect(health.status).toBe(200);
    } finally {
      session.close();
    }
  });

  it('nginx spreads consecutive requests over both instances (round robin)', async () => {
    const served = new Set<string>();
    for (let i = 0; i < 4; i++) served.add((await fetch(`${proxy}/api/health`)).headers.get('x-upstream') ?? '');
    expect([...served].sort()).toEqual(instances.map((u) => new URL(u).host).sort());
  });

  it('accept races through the proxy: one driver twice at once gets 201 and 409; two drivers both get 201', async () => {
    const owner = await signIn(await signUp());
    const [first, second] = [await signIn(await signUp()), await signIn(await signUp())];
    const request = await call<{ id: string }>(proxy!, 'POST', '/requests', { token: owner, body: requestBody() });
    expect(request.status).toBe(201);
    const accept = (token: string) =>
      call<{ code?: string }>(proxy!, 'POST', '/bookings', { token, body: { request_id: request.body.id } });

    const twice = await Promise.all([accept(first), accept(first)]);
    expect(twice.map((a) => a.status).sort()).toEqual([201, 409]);
    expect(twice.find((a) => a.status === 409)?.body).toEqual({
      code: 'already_accepted',
      message: "You've already accepted this request",
    });
    // An accept keeps the request open for other drivers (docs/decisions/006).
    const other = await Promise.all([accept(second), accept(second)]);
    expect(other.map((a) => a.status).sort()).toEqual([201, 409]);
    const rows = await db.query('SELECT driver_id FROM bookings WHERE request_id = $1', [request.body.id]);
    expect(rows.rowCount).toBe(2);
    expect((await accept(owner)).body).toMatchObject({ code: 'own_request' });
  });

  it('a session signed out on one instance stops working on the other within a second', async () => {
    const token = await signIn(await signUp());
    const [one, two] = instances as [string, string];
    // Both instances resolve (and cache) the session.
    for (const base of [one, two]) {
      const session = await call<{ user: unknown }>(base, 'GET', '/auth/session', { token });
      expect(session.body.user).not.toBeNull();
    }
    expect((await call(one, 'POST', '/auth/sign-out', { token })).status).toBe(204);
    const signedOutAt = Date.now();
    let user: unknown = 'still signed in';
    while (Date.now() - signedOutAt < 1000) {
      user = (await call<{ user: unknown }>(two, 'GET', '/auth/session', { token })).body.user;
      if (user === null) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(user).toBeNull();
    expect((await call(two, 'GET', '/rides/mine', { token })).status).toBe(401);
  });

  it('failed sign-ins for one account are counted over both instances: the 6th is refused with 429', async () => {
    const email = await signUp();
    const answers: Answer<{ code: string }>[] = [];
    for (let i = 0; i < 6; i++) {
      answers.push(await call(proxy!, 'POST', '/auth/sign-in', { body: { email, password: 'Wrong-Password-1' } }));
    }
    // Both instances took part: without shared counts each would have seen only three failures.
    expect(new Set(answers.map((a) => a.headers.get('x-upstream'))).size).toBe(2);
    expect(answers.slice(0, 5).map((a) => a.status)).toEqual([401, 401, 401, 401, 401]);
    expect(answers[5]?.status).toBe(429);
    expect(answers[5]?.body.code).toBe('too_many_requests');
    expect(Number(answers[5]?.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
