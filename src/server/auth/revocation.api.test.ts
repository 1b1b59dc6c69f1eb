import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { openDatabase, type Database } from '../db/client';
import { sessions } from '../db/schema';
import { testListenUrl } from '../test/database';
import { callApp, setupTwoInstances } from '../test/harness';
import { SESSION_REVOKED, createAuthService } from './service';
import { hashToken } from './tokens';
import { until } from '../test/wait';

const realPostgres = Boolean(process.env.DATABASE_URL);

/**
 * The staleness bound: once the revoking statement has committed, another instance may serve the session only
 * until the notification reaches its LISTEN connection (milliseconds on one host; the test allows 1 s).
 */
const DELIVERY_BOUND_MS = 1_000;

/** Resolves with the delay when `payload` arrives on this database's LISTEN connection, or null after the bound. */
function heard(database: Database, payload: string): Promise<number | null> {
  const started = performance.now();
  return new Promise((resolve) => {
    const timer = setTimeout(() => void unlisten().then(() => resolve(null)), DELIVERY_BOUND_MS);
    const unlisten = database.notifications.listen(SESSION_REVOKED, (p) => {
      if (p !== payload) return;
      clearTimeout(timer);
      void unlisten().then(() => resolve(performance.now() - started));
    });
  });
}

describe.skipIf(!realPostgres)('session revocation across two instances on one PostgreSQL', () => {
  // The default session cache (5 s): both instances cache every session they resolve.
  const { ctx, a, b, signUpAndIn, signIn } = setupTwoInstances({ AUTH_PER_IP_MAX: '100000' });
  const listening = (d: Database) => d.notifications.isListening(SESSION_REVOKED);

  beforeAll(() => until('both LISTEN connections', () => ctx.databases.every(listening)));

  it('sign-out on A: the next call on B is 401, as soon as the notification has arrived', async () => {
    const { token } = await signUpAndIn();
    expect((await a('GET', '/rides/mine', { cookie: token })).status).toBe(200);
    expect((await b('GET', '/rides/mine', { cookie: token })).status).toBe(200);

    const delivered = heard(ctx.databases[1], `token:${hashToken(token)}`);
    expect((await a('POST', '/auth/sign-out', { cookie: token })).status).toBe(204);
    const delay = await delivered;

    expect((await b('GET', '/rides/mine', { cookie: token })).status).toBe(401);
    expect((await b('GET', '/auth/session', { bearer: token })).body).toEqual({ user: null, session: null });
    expect((await a('GET', '/rides/mine', { cookie: token })).status).toBe(401);
    expect(delay).not.toBeNull();
    expect(delay!).toBeLessThan(DELIVERY_BOUND_MS);
  });

  it("revoking all of a user's sessions on A evicts every one of them on B", async () => {
    const first = await signUpAndIn();
    const second = await signIn(first.email, 'Correct-Horse-9');
    for (const token of [first.token, second])
      expect((await b('GET', '/rides/mine', { cookie: token })).status).toBe(200);

    const authOnA = createAuthService(
      ctx.databases[0].db,
      { memoryCost: 1024, timeCost: 1, parallelism: 1 },
      { idleMs: 3_600_000, absoluteMs: 86_400_000, touchMs: 300_000 },
    );
    const delivered = heard(ctx.databases[1], `user:${first.user.id}`);
    await authOnA.revokeUserSessions(first.user.id);
    expect(await delivered).not.toBeNull();

    for (const token of [first.token, second])
      expect((await b('GET', '/rides/mine', { cookie: token })).status).toBe(401);
  });

  it('B really serves from its cache while listening: a row deleted behind its back (no NOTIFY) still works', async () => {
    // What makes the first test meaningful: without the notification, B would have answered 200 for up to the ttl.
    const { token } = await signUpAndIn();
    expect((await b('GET', '/rides/mine', { cookie: token })).status).toBe(200);
    await ctx.databases[0].db.delete(sessions).where(eq(sessions.tokenHash, hashToken(token)));
    expect((await b('GET', '/rides/mine', { cookie: token })).status).toBe(200);
  });

  it('never trusts its cache while the LISTEN server cannot be reached (DATABASE_LISTEN_URL)', async () => {
    const url = (ctx.databases[0] as Database & { url: string }).url;
    const unreachable = new URL(url);
    unreachable.port = '1';
    const database = await openDatabase({ url, dataDir: '', listenUrl: unreachable.toString() });
    try {
      const app = createApp({ db: database.db, env: ctx.env, notifications: database.notifications });
      const { token } = await signUpAndIn();
      expect((await callApp(app, 'GET', '/rides/mine', { cookie: token })).status).toBe(200);
      await ctx.databases[0].db.delete(sessions).where(eq(sessions.tokenHash, hashToken(token)));
      expect((await callApp(app, 'GET', '/rides/mine', { cookie: token })).status).toBe(401);
      expect(listening(database)).toBe(false);
    } finally {
      await database.close();
    }
  });

  describe('with the LISTEN connection down', () => {
    // A third instance whose LISTEN connection waits a minute before reconnecting, so the outage can be observed.
    const third = {} as { database: Database; app: ReturnType<typeof createApp> };
    const c = (path: string, token: string) => callApp(third.app, 'GET', path, { cookie: token });

    beforeAll(async () => {
      const url = (ctx.databases[0] as Database & { url: string }).url;
      third.database = await openDatabase({
        url,
        dataDir: '',
        listenUrl: testListenUrl(url),
        listen: { minMs: 60_000, maxMs: 60_000 },
      });
      third.app = createApp({ db: third.database.db, env: ctx.env, notifications: third.database.notifications });
      await until('the third LISTEN connection', () => listening(third.database));
    });
    afterAll(() => third.database?.close());

    it('bypasses the cache (every call is looked up) until it is back; the other instances reconnect', async () => {
      const before = await signUpAndIn();
      expect((await c('/rides/mine', before.token)).status).toBe(200);

      // Every instance's LISTEN connection dies (as in a database restart or a network cut).
      const killed = (await ctx.databases[0].db.execute(sql`
        select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and application_name = 'ruralroute-listen'`)) as unknown as {
        rows: unknown[];
      };
      expect(killed.rows.length).toBeGreaterThanOrEqual(3);
      await until('the third instance to notice', () => !listening(third.database));

      // What it had cached is no longer trusted: a session deleted without any notification is refused at once.
      await ctx.databases[0].db.delete(sessions).where(eq(sessions.tokenHash, hashToken(before.token)));
      expect((await c('/rides/mine', before.token)).status).toBe(401);

      // Nor is anything stored meanwhile.
      const during = await signUpAndIn();
      expect((await c('/rides/mine', during.token)).status).toBe(200);
      await ctx.databases[0].db.delete(sessions).where(eq(sessions.tokenHash, hashToken(during.token)));
      expect((await c('/rides/mine', during.token)).status).toBe(401);

      // A and B (default backoff: 100 ms, doubling) are listening again, and revocation reaches B again.
      await until('A and B to reconnect', () => ctx.databases.every(listening), 3_000);
      const after = await signUpAndIn();
      expect((await b('GET', '/rides/mine', { cookie: after.token })).status).toBe(200);
      const delivered = heard(ctx.databases[1], `token:${hashToken(after.token)}`);
      expect((await a('POST', '/auth/sign-out', { cookie: after.token })).status).toBe(204);
      expect(await delivered).not.toBeNull();
      expect((await b('GET', '/rides/mine', { cookie: after.token })).status).toBe(401);
    });
  });
});
