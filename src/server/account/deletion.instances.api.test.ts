import { beforeAll, describe, expect, it } from 'vitest';
import { SESSION_REVOKED } from '../auth/service';
import type { Database } from '../db/client';
import { STRONG_PASSWORD, setupTwoInstances } from '../test/harness';

const realPostgres = Boolean(process.env.DATABASE_URL);

/** The notification reaches another instance's LISTEN connection in milliseconds on one host; 1 s is the bound. */
const DELIVERY_BOUND_MS = 1_000;

async function until(what: string, ok: () => boolean, withinMs = 5_000) {
  const deadline = Date.now() + withinMs;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Resolves true when `payload` arrives on this database's LISTEN connection, false after the bound. */
function heard(database: Database, payload: string): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => void unlisten().then(() => resolve(false)), DELIVERY_BOUND_MS);
    const unlisten = database.notifications.listen(SESSION_REVOKED, (p) => {
      if (p !== payload) return;
      clearTimeout(timer);
      void unlisten().then(() => resolve(true));
    });
  });
}

describe.skipIf(!realPostgres)('Delete account across two instances on one PostgreSQL', () => {
  // A long session cache (30 s): only the notification sent with the deletion can clear B's entries in time.
  const { ctx, a, b, signUpAndIn, signIn } = setupTwoInstances({
    AUTH_PER_IP_MAX: '100000',
    SESSION_CACHE_SECONDS: '30',
    JOBS_POLL_MS: '3600000',
  });
  const listening = (d: Database) => d.notifications.isListening(SESSION_REVOKED);

  beforeAll(() => until('both LISTEN connections', () => ctx.databases.every(listening)));

  it('every session of the account, cached on B, is over on B as soon as A has deleted it', async () => {
    const me = await signUpAndIn('Della Deleted');
    const other = await signIn(me.email, STRONG_PASSWORD);
    for (const token of [me.token, other])
      expect((await b('GET', '/account/profile', { cookie: token })).status).toBe(200);

    const delivered = heard(ctx.databases[1], `user:${me.user.id}`);
    const res = await a('POST', '/account/delete', {
      cookie: me.token,
      body: { confirm: 'DELETE', password: STRONG_PASSWORD },
    });
    expect(res.status).toBe(204);
    expect(await delivered).toBe(true);

    for (const token of [me.token, other]) {
      expect((await b('GET', '/account/profile', { cookie: token })).status).toBe(401);
      expect((await b('GET', '/auth/session', { cookie: token })).body).toEqual({ user: null, session: null });
    }
  });
});
