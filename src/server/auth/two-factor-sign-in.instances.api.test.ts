import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SessionInfo } from '../../shared/auth';
import { STRONG_PASSWORD, setupTwoInstances } from '../test/harness';
import { serveApp, SseClient } from '../test/sse';
import { frozenClock, STEP_MS, twoFactorSteps } from '../test/two-factor';
import { SESSION_REVOKED } from './service';
import { hashToken } from './tokens';
import { heard } from '../test/revocation';
import { until } from '../test/wait';

const realPostgres = Boolean(process.env.DATABASE_URL);

const PENDING = { user: null, session: null, two_factor_pending: true };

describe.skipIf(!realPostgres)('two-factor sign-in across two instances on one PostgreSQL', () => {
  const time = frozenClock();
  afterEach(time.reset);
  // A long session cache (30 s), so a stale entry would outlive the test: only the notification can clear it.
  const { ctx, a, b, signUpAndIn, signIn } = setupTwoInstances(
    { AUTH_PER_IP_MAX: '100000', SESSION_CACHE_SECONDS: '30' },
    { clock: time.clock },
  );
  const onA = twoFactorSteps(a, (secret) => time.code(secret));
  const onB = twoFactorSteps(b, (secret) => time.code(secret));
  const sessionOn = async (call: typeof a, token: string) =>
    (await call<SessionInfo>('GET', '/auth/session', { cookie: token })).body;
  const profileStatus = async (call: typeof a, token: string) =>
    (await call('GET', '/account/profile', { cookie: token })).status;

  beforeAll(() =>
    until('both LISTEN connections', () => ctx.databases.every((d) => d.notifications.isListening(SESSION_REVOKED))),
  );

  const servers: { url: string; close(): Promise<void> }[] = [];
  const clients: SseClient[] = [];
  afterAll(async () => {
    for (const c of clients) c.close();
    await Promise.all(servers.map((s) => s.close()));
  });

  it('a session pending on A that gives its code on B is signed in on A at once', async () => {
    const me = await signUpAndIn('Ada Instances');
    const { secret } = await onA.turnOn(me.token);
    time.advance(STEP_MS);
    const pending = await signIn(me.email, STRONG_PASSWORD);
    // A has resolved (and cached) it as pending.
    expect(await sessionOn(a, pending)).toEqual(PENDING);
    expect(await profileStatus(a, pending)).toBe(401);

    const delivered = heard(ctx.databases[0], `token:${hashToken(pending)}`);
    const { res, token } = await onB.giveCode(pending, { code: await time.code(secret) });
    expect(res.status).toBe(200);
    expect(await delivered).toBe(true);

    const info = await sessionOn(a, token!);
    expect(info.user?.id).toBe(me.user.id);
    expect(info.session?.aal).toBe('aal2');
    expect(await profileStatus(a, token!)).toBe(200);
    // The token of the password step is neither signed in nor pending anywhere.
    expect(await sessionOn(a, pending)).toEqual({ user: null, session: null });
    expect(await sessionOn(b, pending)).toEqual({ user: null, session: null });
  });

  it("turning two-factor on via A makes the user's other session pending on B at once", async () => {
    const me = await signUpAndIn('Ada Instances');
    const other = await signIn(me.email, STRONG_PASSWORD);
    // B has the other session cached as signed in, and the enabling one too.
    expect(await profileStatus(b, other)).toBe(200);
    expect(await profileStatus(b, me.token)).toBe(200);

    const delivered = heard(ctx.databases[1], `user:${me.user.id}`);
    const { secret } = await onA.turnOn(me.token);
    expect(await delivered).toBe(true);

    expect(await profileStatus(b, other)).toBe(401);
    expect(await sessionOn(b, other)).toEqual(PENDING);
    expect((await sessionOn(b, me.token)).session?.aal).toBe('aal2');
    expect(await profileStatus(b, me.token)).toBe(200);

    // Turning it off via B ends the still pending session, which A had cached, at once.
    expect(await sessionOn(a, other)).toEqual(PENDING);
    const ended = heard(ctx.databases[0], `user:${me.user.id}`);
    time.advance(STEP_MS);
    const off = await b('POST', '/account/two-factor/disable', {
      cookie: me.token,
      body: { code: await time.code(secret) },
    });
    expect(off.status).toBe(204);
    expect(await ended).toBe(true);
    expect(await sessionOn(a, other)).toEqual({ user: null, session: null });
    expect(await profileStatus(a, me.token)).toBe(200);
  });

  it("turning two-factor on via A ends the live stream of the user's other session on B, not its own", async () => {
    servers.push(await serveApp(ctx.apps[1]));
    const me = await signUpAndIn('Ada Instances');
    const other = await signIn(me.email, STRONG_PASSWORD);
    const open = async (token: string) => {
      const client = await SseClient.open(servers[0]!.url, { cookie: token });
      clients.push(client);
      expect(client.status).toBe(200);
      await client.take(1);
      return client;
    };
    const [mine, theirs] = [await open(me.token), await open(other)];
    await onA.turnOn(me.token);
    await theirs.ended;
    expect(theirs.closed).toBe(true);
    // The enabling session’s stream stays open (its re-check is done by now), and a pending session cannot open one.
    await mine.quiet(300);
    expect(mine.closed).toBe(false);
    const refused = await SseClient.open(servers[0]!.url, { cookie: other });
    clients.push(refused);
    expect(refused.status).toBe(401);
  });
});
