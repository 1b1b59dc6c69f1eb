import { beforeAll, describe, expect, it } from 'vitest';
import type { AccountSession } from '../../shared/account';
import { SESSION_REVOKED } from '../auth/service';
import { hashToken } from '../auth/tokens';
import type { Database } from '../db/client';
import { setupTwoInstances } from '../test/harness';
import { heard } from '../test/revocation';
import { until } from '../test/wait';

const realPostgres = Boolean(process.env.DATABASE_URL);

describe.skipIf(!realPostgres)('account settings across two instances on one PostgreSQL', () => {
  // A long session cache (30 s), so a stale entry on B would outlive the test: only the notification can clear it.
  const { ctx, a, b, signUpAndIn, signIn } = setupTwoInstances({
    AUTH_PER_IP_MAX: '100000',
    SESSION_CACHE_SECONDS: '30',
  });
  const listening = (d: Database) => d.notifications.isListening(SESSION_REVOKED);
  const sessionName = async (call: typeof a, token: string) =>
    (await call<{ user: { full_name: string } | null }>('GET', '/auth/session', { cookie: token })).body.user
      ?.full_name;

  beforeAll(() => until('both LISTEN connections', () => ctx.databases.every(listening)));

  it('a session signed out on A (Settings, Sessions) is 401 on B at once', async () => {
    const me = await signUpAndIn('Ines Instances');
    const other = await signIn(me.email, 'Correct-Horse-9');
    // B has resolved (and cached) the other session.
    expect((await b('GET', '/account/profile', { cookie: other })).status).toBe(200);
    const otherId = (
      await b<{ items: AccountSession[] }>('GET', '/account/sessions', { cookie: other })
    ).body.items.find((s) => s.current)!.id;

    const delivered = heard(ctx.databases[1], `token:${hashToken(other)}`);
    expect((await a('DELETE', `/account/sessions/${otherId}`, { cookie: me.token })).status).toBe(204);
    expect(await delivered).toBe(true);

    expect((await b('GET', '/account/profile', { cookie: other })).status).toBe(401);
    expect((await b('GET', '/auth/session', { cookie: other })).body).toEqual({ user: null, session: null });
    expect((await b('GET', '/account/profile', { cookie: me.token })).status).toBe(200);
  });

  it('sign-out-others and a password change on A end the other sessions on B at once', async () => {
    const me = await signUpAndIn('Ines Instances');
    const others = [await signIn(me.email, 'Correct-Horse-9'), await signIn(me.email, 'Correct-Horse-9')];
    for (const token of others) expect((await b('GET', '/account/profile', { cookie: token })).status).toBe(200);
    let delivered = heard(ctx.databases[1], `user:${me.user.id}`);
    expect((await a('POST', '/account/sessions/sign-out-others', { cookie: me.token })).body).toEqual({ count: 2 });
    expect(await delivered).toBe(true);
    for (const token of others) expect((await b('GET', '/account/profile', { cookie: token })).status).toBe(401);

    const again = await signIn(me.email, 'Correct-Horse-9');
    expect((await b('GET', '/account/profile', { cookie: again })).status).toBe(200);
    delivered = heard(ctx.databases[1], `user:${me.user.id}`);
    const changed = await a('POST', '/account/password', {
      cookie: me.token,
      body: {
        current_password: 'Correct-Horse-9',
        new_password: 'Another-Battery-7',
        confirm_password: 'Another-Battery-7',
      },
    });
    expect(changed.status).toBe(204);
    expect(await delivered).toBe(true);
    expect((await b('GET', '/account/profile', { cookie: again })).status).toBe(401);
    expect((await b('GET', '/account/profile', { cookie: me.token })).status).toBe(200);
  });

  it("a name changed on A shows on B's next /auth/session", async () => {
    const me = await signUpAndIn('Old Name');
    // B has the session cached with the old name.
    expect(await sessionName(b, me.token)).toBe('Old Name');
    expect(await sessionName(b, me.token)).toBe('Old Name');

    const delivered = heard(ctx.databases[1], `profile:${me.user.id}`);
    const res = await a('PATCH', '/account/profile', { cookie: me.token, body: { full_name: 'New Name' } });
    expect(res.status).toBe(200);
    expect(await delivered).toBe(true);

    expect(await sessionName(b, me.token)).toBe('New Name');
    expect(await sessionName(a, me.token)).toBe('New Name');
    // The session itself lives on, on both.
    expect((await b('GET', '/account/profile', { cookie: me.token })).status).toBe(200);
  });
});
