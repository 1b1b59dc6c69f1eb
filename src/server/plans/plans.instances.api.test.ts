import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { PLAN_TERMS } from '../../shared/plans';
import type { PlanView } from '../../shared/plans-api';
import { rowsOf } from '../db/result-rows';
import { planCharges } from '../db/schema';
import { setupTwoInstances } from '../test/harness';
import { TEST_CARD } from '../test/lifecycle';

const realPostgres = Boolean(process.env.DATABASE_URL);
const DAY = 86_400_000;

/**
 * The plans sweep runs on every instance (issue 38): two instances on one PostgreSQL, sweeping at the same moment
 * after a month has passed, charge a member's renewal once; a subscription sent to both at once charges once.
 */
describe.skipIf(!realPostgres)('plans across two instances on one PostgreSQL', () => {
  let offsetMs = 0;
  const clock = () => new Date(Date.now() + offsetMs);
  const { ctx, a, b, signUpAndIn } = setupTwoInstances(
    {
      JOBS_POLL_MS: '3600000',
      AUTH_PER_IP_MAX: '100000',
      WRITE_LIMIT_PER_USER_MAX: '100000',
      SESSION_ABSOLUTE_DAYS: '399',
      SESSION_IDLE_MINUTES: String(60 * 24 * 399),
      PLAN_SWEEP_SECONDS: '3600',
    },
    { clock },
  );
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
