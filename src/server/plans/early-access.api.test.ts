import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { EARLY_ACCESS_TEXT } from '../../shared/early-access';
import type { EarlyAccessView } from '../../shared/early-access-api';
import { INPUT_FALLBACK_MESSAGE } from '../../shared/marketplace';
import type { PlanView } from '../../shared/plans-api';
import { profiles } from '../db/schema';
import { setupTestApp, type CallOptions } from '../test/harness';
import { TEST_CARD } from '../test/lifecycle';
import { earlyAccessOn } from './early-access';

/**
 * Community's early access (issue 38, decision 035): Settings' 'Try new features first', `GET` and
 * `PUT /api/account/early-access`. Plans are set the way a member sets them (POST /plan with the test card); the
 * return to Free moves the app's clock past the period and runs the plans sweep, as plans.api.test.ts does.
 */
let offsetMs = 0;
const clock = () => new Date(Date.now() + offsetMs);
const { ctx, call, signUpAndIn } = setupTestApp(
  {
    AUTH_PER_IP_MAX: '100000',
    WRITE_LIMIT_PER_USER_MAX: '100000',
    // A year passes on the app's clock: the sessions outlive it.
    SESSION_ABSOLUTE_DAYS: '399',
    SESSION_IDLE_MINUTES: String(60 * 24 * 399),
    JOBS_POLL_MS: '3600000',
    PLAN_SWEEP_SECONDS: '3600',
  },
  { clock },
);
const db = () => ctx.database.db;

const PLAN_REQUIRED = { code: 'plan_required', message: EARLY_ACCESS_TEXT.needsPlan };

const view = (token: string) => call<EarlyAccessView>('GET', '/account/early-access', { cookie: token });
const put = (token: string, body: unknown, opts: CallOptions = {}) =>
  call<EarlyAccessView>('PUT', '/account/early-access', { cookie: token, body, ...opts });
const subscribe = async (token: string, plan: 'plus' | 'community') => {
  const res = await call<PlanView>('POST', '/plan', { cookie: token, body: { plan, card: TEST_CARD } });
  expect(res.status).toBe(200);
  return res.body;
};
const savedSwitch = async (userId: string) =>
  (await db().select({ on: profiles.earlyAccess }).from(profiles).where(eq(profiles.userId, userId)))[0]?.on;

async function communityMember(name = 'Cam Community') {
  const me = await signUpAndIn(name);
  await subscribe(me.token, 'community');
  return me;
}

describe('Early access: the switch', () => {
  it('a Community member turns it on and off; the client and the server check see each change', async () => {
    const me = await communityMember();
    expect((await view(me.token)).body).toEqual({ on: false, saved: false, available: true });
    expect(await earlyAccessOn(db(), me.user.id)).toBe(false);

    const on = await put(me.token, { on: true });
    expect(on.status).toBe(200);
    expect(on.body).toEqual({ on: true, saved: true, available: true });
    expect((await view(me.token)).body).toEqual({ on: true, saved: true, available: true });
    expect(await savedSwitch(me.user.id)).toBe(true);
    expect(await earlyAccessOn(db(), me.user.id)).toBe(true);

    const off = await put(me.token, { on: false });
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ on: false, saved: false, available: true });
    expect(await savedSwitch(me.user.id)).toBe(false);
    expect(await earlyAccessOn(db(), me.user.id)).toBe(false);
  });

  it('refuses a Free member and a Plus member (403 plan_required) and changes nothing', async () => {
    const free = await signUpAndIn('Fay Free');
    expect((await view(free.token)).body).toEqual({ on: false, saved: false, available: false });
    const refused = await put(free.token, { on: true });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(PLAN_REQUIRED);
    expect(await savedSwitch(free.user.id)).toBe(false);

    const plus = await signUpAndIn('Pat Plus');
    await subscribe(plus.token, 'plus');
    expect((await view(plus.token)).body).toEqual({ on: false, saved: false, available: false });
    for (const on of [true, false]) {
      const res = await put(plus.token, { on });
      expect(res.status).toBe(403);
      expect(res.body).toEqual(PLAN_REQUIRED);
    }
    expect(await savedSwitch(plus.user.id)).toBe(false);
    expect(await earlyAccessOn(db(), plus.user.id)).toBe(false);
  });

  it('answers bad input with 400 and a clear message, and changes nothing', async () => {
    const me = await communityMember();
    await put(me.token, { on: true });
    const cases: [string, CallOptions, string, string][] = [
      ['a string', { body: { on: 'false' } }, 'validation_error', EARLY_ACCESS_TEXT.badInput],
      ['a number', { body: { on: 0 } }, 'validation_error', EARLY_ACCESS_TEXT.badInput],
      ['null', { body: { on: null } }, 'validation_error', EARLY_ACCESS_TEXT.badInput],
      ['no field', { body: {} }, 'validation_error', EARLY_ACCESS_TEXT.badInput],
      ['not an object', { body: [false] }, 'validation_error', INPUT_FALLBACK_MESSAGE],
      ['JSON null', { raw: 'null' }, 'validation_error', INPUT_FALLBACK_MESSAGE],
      ['broken JSON', { raw: '{"on": ' }, 'malformed_json', expect.any(String) as unknown as string],
    ];
    for (const [what, opts, code, message] of cases) {
      const res = await call('PUT', '/account/early-access', { cookie: me.token, ...opts });
      expect(res.status, what).toBe(400);
      expect(res.body, what).toEqual({ code, message });
    }
    // Not JSON at all.
    const text = await call('PUT', '/account/early-access', {
      cookie: me.token,
      raw: 'on=false',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(text.status).toBe(415);
    expect(await savedSwitch(me.user.id)).toBe(true);
    expect((await view(me.token)).body).toEqual({ on: true, saved: true, available: true });
  });

  it("changes only the caller's own switch: a stranger cannot change someone else's, a signed-out call nothing", async () => {
    const owner = await communityMember('Olive Owner');
    const stranger = await communityMember('Stan Stranger');
    await put(owner.token, { on: true });

    // A user id in the body is not a way to name someone else: the session says whose switch it is.
    const res = await put(stranger.token, { on: false, user_id: owner.user.id });
    expect(res.status).toBe(200);
    expect(await savedSwitch(owner.user.id)).toBe(true);
    expect((await view(owner.token)).body.on).toBe(true);
    await put(stranger.token, { on: true, user_id: owner.user.id });
    await put(owner.token, { on: false });
    expect(await savedSwitch(stranger.user.id)).toBe(true);
    expect(await savedSwitch(owner.user.id)).toBe(false);

    const anonymous = await call('PUT', '/account/early-access', { body: { on: true } });
    expect(anonymous.status).toBe(401);
    expect((await call('GET', '/account/early-access')).status).toBe(401);
    // A browser's write from another site is refused before it reaches the switch.
    const foreign = await put(owner.token, { on: true }, { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(await savedSwitch(owner.user.id)).toBe(false);
  });
});

describe('Early access follows the plan', () => {
  it('a Community member who returns to Free loses it at once; the saved switch is kept and comes back with Community', async () => {
    const me = await communityMember();
    expect((await put(me.token, { on: true })).body.on).toBe(true);

    const cancelled = await call<PlanView>('POST', '/plan/cancel', { cookie: me.token, body: {} });
    expect(cancelled.status).toBe(200);
    // Still Community until the end of the paid year.
    expect((await view(me.token)).body.on).toBe(true);
    offsetMs += Date.parse(cancelled.body.current_period_end!) - clock().getTime() + 1000;
    await ctx.app.plans.sweep();

    expect((await view(me.token)).body).toEqual({ on: false, saved: true, available: false });
    expect(await earlyAccessOn(db(), me.user.id)).toBe(false);
    expect(await savedSwitch(me.user.id)).toBe(true);
    // On Free the switch cannot be moved either way.
    expect((await put(me.token, { on: false })).body).toEqual(PLAN_REQUIRED);

    await subscribe(me.token, 'community');
    expect((await view(me.token)).body).toEqual({ on: true, saved: true, available: true });
  });

  it('switching from Community to Plus turns it off too', async () => {
    const me = await communityMember();
    await put(me.token, { on: true });
    const switched = await call<PlanView>('POST', '/plan/switch', { cookie: me.token, body: { plan: 'plus' } });
    expect(switched.status).toBe(200);
    expect((await view(me.token)).body).toEqual({ on: false, saved: true, available: false });
    expect(await earlyAccessOn(db(), me.user.id)).toBe(false);
  });
});
