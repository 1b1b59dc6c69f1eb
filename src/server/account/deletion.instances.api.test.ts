import { beforeAll, describe, expect, it } from 'vitest';
import { SESSION_REVOKED } from '../auth/service';
import type { Database } from '../db/client';
import { STRONG_PASSWORD, setupTwoInstances } from '../test/harness';
import { heard } from '../test/revocation';
import { until } from '../test/wait';

const realPostgres = Boolean(process.env.DATABASE_URL);

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
