import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SessionInfo } from '../../shared/auth';
import { PLAN_TERMS } from '../../shared/plans';
import type { PlanView } from '../../shared/plans-api';
import { SESSION_REVOKED } from '../auth/service';
import type { Database } from '../db/client';
import { rowsOf } from '../db/result-rows';
import { planCharges } from '../db/schema';
import { setupTwoInstances } from '../test/harness';
import { TEST_CARD } from '../test/lifecycle';
import { heard } from '../test/revocation';
import { until } from '../test/wait';

const realPostgres = Boolean(process.env.DATABASE_URL);
const DAY = 86_400_000;
/** Months pass on the app's clock (the sessions outlive them); the sweep runs when a test says. */
const ENV = {
  JOBS_POLL_MS: '3600000',
  AUTH_PER_IP_MAX: '100000',
  WRITE_LIMIT_PER_USER_MAX: '100000',
  SESSION_ABSOLUTE_DAYS: '399',
  SESSION_IDLE_MINUTES: String(60 * 24 * 399),
  PLAN_SWEEP_SECONDS: '3600',
};

/**
 * The plans sweep runs on every instance (issue 38): two instances on one PostgreSQL, sweeping at the same moment
 * after a month has passed, charge a member's renewal once; a subscription sent to both at once charges once.
 */
describe.skipIf(!realPostgres)('plans across two instances on one PostgreSQL', () => {
  let offsetMs = 0;
  const clock = () => new Date(Date.now() + offsetMs);
  const { ctx, a, b, signUpAndIn } = setupTwoInstances(ENV, { clock });
  const db = () => ctx.databases[0]!.db;
  const paid = async (userId: string) =>
    (await db().select().from(planCharges).where(eq(planCharges.userId, userId))).filter((c) => c.state === 'paid');
  const netCharged = async (userId: string) => {
    const [row] = rowsOf<{ net: string }>(
      await db().execute(
        sql`select coalesce(sum(amount_cents - refunded_cents), 0)::text as net from test_provider_charges
            where metadata->>'user_id' = ${userId} and status = 'succeeded'`,
      ),
    );
    return Number(row!.net);
  };

  it('a subscription sent to A and B at once charges once', async () => {
    const me = await signUpAndIn('Two Tabs');
    const body = { plan: 'plus', card: TEST_CARD };
    const answers = await Promise.all([
      a<PlanView>('POST', '/plan', { cookie: me.token, body }),
      b<PlanView>('POST', '/plan', { cookie: me.token, body }),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await paid(me.user.id)).toHaveLength(1);
    expect(await netCharged(me.user.id)).toBe(PLAN_TERMS.plus.priceCents);
  });

  it('a month later, both instances sweep at once: the renewal is charged once', async () => {
    const me = await signUpAndIn('Renewed Once');
    const plus = (await a<PlanView>('POST', '/plan', { cookie: me.token, body: { plan: 'plus', card: TEST_CARD } }))
      .body;
    offsetMs += Date.parse(plus.current_period_end!) - clock().getTime() + 1000;
    await Promise.all(ctx.apps.map((app) => app.plans.sweep()));
    const charges = await paid(me.user.id);
    expect(charges.map((c) => c.kind).sort()).toEqual(['renewal', 'subscribe']);
    expect(await netCharged(me.user.id)).toBe(2 * PLAN_TERMS.plus.priceCents);
    const view = (await b<PlanView>('GET', '/plan', { cookie: me.token })).body;
    expect(Date.parse(view.current_period_end!)).toBeGreaterThan(Date.parse(plus.current_period_end!) + 27 * DAY);
  });
});

/**
 * The session's user carries the plan (the forms read it): a plan move on one instance makes every instance forget
 * the member's cached sessions (migration 0039's trigger on profiles.plan), so B's next session check has the new
 * plan although B cached the session for 30 seconds.
 */
describe.skipIf(!realPostgres)("a plan's change reaches every instance's session cache", () => {
  let offsetMs = 0;
  const clock = () => new Date(Date.now() + offsetMs);
  const { ctx, a, b, signUpAndIn } = setupTwoInstances({ ...ENV, SESSION_CACHE_SECONDS: '30' }, { clock });
  const listening = (d: Database) => d.notifications.isListening(SESSION_REVOKED);
  beforeAll(() => until('both LISTEN connections', () => ctx.databases.every(listening)));
  const sessionPlan = async (call: typeof a, token: string) =>
    (await call<SessionInfo>('GET', '/auth/session', { cookie: token })).body.user?.plan;

  it('subscribing on A: Plus on B at once; the plan ended by the sweep on A: Free on B at once', async () => {
    const me = await signUpAndIn('Cached Plan');
    expect(await sessionPlan(b, me.token)).toBe('free');

    let delivered = heard(ctx.databases[1]!, `profile:${me.user.id}`);
    const plus = await a<PlanView>('POST', '/plan', { cookie: me.token, body: { plan: 'plus', card: TEST_CARD } });
    expect(plus.status).toBe(200);
    expect(await delivered).toBe(true);
    expect(await sessionPlan(b, me.token)).toBe('plus');
    expect(await sessionPlan(a, me.token)).toBe('plus');

    expect((await a('POST', '/plan/cancel', { cookie: me.token, body: {} })).status).toBe(200);
    offsetMs += Date.parse(plus.body.current_period_end!) - clock().getTime() + 1000;
    delivered = heard(ctx.databases[1]!, `profile:${me.user.id}`);
    await ctx.apps[0]!.plans.sweep();
    expect(await delivered).toBe(true);
    expect(await sessionPlan(b, me.token)).toBe('free');
  });
});
