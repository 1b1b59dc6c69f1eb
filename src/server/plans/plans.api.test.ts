import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { TEST_CARDS } from '../../shared/payments';
import { PLAN_GRACE_DAYS, PLAN_TERMS, unusedCents } from '../../shared/plans';
import type { PlanView } from '../../shared/plans-api';
import { rowsOf } from '../db/result-rows';
import { jobs, ledgerTransactions, notifications, planCharges, planSubscriptions, profiles } from '../db/schema';
import { balances, creditBalance, ledgerTotal } from '../payments/ledger';
import { setupTestApp } from '../test/harness';
import { DECLINED_CARD, TEST_CARD } from '../test/lifecycle';
import { planOf } from './plan-of';
import { STALE_PLAN_CHARGE_MS } from './service';

/**
 * Paid plans on the embedded billing (issue 38): every plan move through the API, on the app's clock (the test moves
 * it, then runs the plans sweep as the timer would), with the ledger's entries for every charge and credit.
 */
const DAY = 86_400_000;
let offsetMs = 0;
const clock = () => new Date(Date.now() + offsetMs);
const { ctx, call, signUpAndIn } = setupTestApp(
  {
    AUTH_PER_IP_MAX: '100000',
    WRITE_LIMIT_PER_USER_MAX: '100000',
    // Months pass on the app's clock: the sessions outlive them.
    SESSION_ABSOLUTE_DAYS: '399',
    SESSION_IDLE_MINUTES: String(60 * 24 * 399),
    JOBS_POLL_MS: '3600000',
    PLAN_SWEEP_SECONDS: '3600',
  },
  { clock },
);
const db = () => ctx.database.db;
const SAVED_THEN_DECLINED = { ...TEST_CARD, number: TEST_CARDS.savedThenDeclined };
const PLUS = PLAN_TERMS.plus.priceCents;
const COMMUNITY = PLAN_TERMS.community.priceCents;

const view = async (token: string) => (await call<PlanView>('GET', '/plan', { cookie: token })).body;
const subscribe = (token: string, plan: string, card: unknown = TEST_CARD) =>
  call<PlanView>('POST', '/plan', { cookie: token, body: { plan, card } });
const move = (token: string, path: string, body: unknown = {}) =>
  call<PlanView>('POST', `/plan/${path}`, { cookie: token, body });
const sweep = () => ctx.app.plans.sweep();
/** Moves the app's clock to just past `iso`. */
const passTo = (iso: string, extraMs = 1000) => {
  offsetMs += Date.parse(iso) - clock().getTime() + extraMs;
};

const chargesOf = (userId: string) =>
  db().select().from(planCharges).where(eq(planCharges.userId, userId)).orderBy(planCharges.createdAt);
const noticesOf = async (userId: string) =>
  (await db().select().from(notifications).where(eq(notifications.userId, userId))).filter((n) => n.type === 'plan');
const planTransactions = async () =>
  rowsOf<{ kind: string; key: string }>(
    await db().execute(sql`select kind, idempotency_key as key from ledger_transactions where kind like 'plan%'`),
  );
const providerCharges = async (userId: string) =>
  rowsOf<{ amount_cents: string; refunded_cents: string; status: string }>(
    await db().execute(
      sql`select amount_cents::text, refunded_cents::text, status from test_provider_charges
          where metadata->>'user_id' = ${userId} order by created_at`,
    ),
  ).map((r) => ({ amount: Number(r.amount_cents) - Number(r.refunded_cents), status: r.status }));

describe('Plans: subscribing', () => {
  it('a Free member subscribes to Plus with the test card: paid, in the ledger, the plan on, the receipt sent', async () => {
    const me = await signUpAndIn();
    expect(await view(me.token)).toMatchObject({ plan: 'free', status: null, test_mode: true, available: true });
    const before = await balances(db(), ['plan_revenue']);
    const res = await subscribe(me.token, 'plus');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      plan: 'plus',
      status: 'active',
      cancel_at_period_end: false,
      card: { brand: 'visa', last4: '4242' },
      switch_quote: { plan: 'community', price_cents: COMMUNITY },
    });
    // A month from now.
    const end = Date.parse(res.body.current_period_end!);
    expect(end - clock().getTime()).toBeGreaterThan(27 * DAY);
    expect(end - clock().getTime()).toBeLessThan(32 * DAY);
    expect(await planOf(db(), me.user.id)).toBe('plus');
    const [charge] = await chargesOf(me.user.id);
    expect(charge).toMatchObject({ state: 'paid', kind: 'subscribe', amountCents: PLUS, cardCents: PLUS });
    expect(await providerCharges(me.user.id)).toEqual([{ amount: PLUS, status: 'succeeded' }]);
    expect(await balances(db(), ['plan_revenue'])).toEqual([before[0]! + PLUS]);
    expect(await ledgerTotal(db())).toBe(0);
    const [notice] = await noticesOf(me.user.id);
    expect(notice!.data).toMatchObject({ kind: 'subscribed', plan: 'Plus', amount_cents: PLUS, last4: '4242' });
    // Its e-mail (the receipt) is queued in the same transaction.
    const mails = await db()
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, 'notification-email'), sql`${jobs.payload}->>'notification_id' = ${notice!.id}`));
    expect(mails).toHaveLength(1);
  });

  it('a declined card changes nothing; subscribing twice is refused', async () => {
    const me = await signUpAndIn();
    const declined = await subscribe(me.token, 'plus', DECLINED_CARD);
    expect(declined.status).toBe(402);
    expect(declined.body).toMatchObject({ code: 'card_declined' });
    expect(await view(me.token)).toMatchObject({ plan: 'free' });
    expect(await chargesOf(me.user.id)).toEqual([]);
    expect(await planOf(db(), me.user.id)).toBe('free');

    expect((await subscribe(me.token, 'community')).status).toBe(200);
    const again = await subscribe(me.token, 'community');
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'plan_state', message: 'You are on Community already.' });
    expect((await chargesOf(me.user.id)).filter((c) => c.state === 'paid')).toHaveLength(1);
  });

  it('bad input is a 400 and changes nothing; signed out is a 401', async () => {
    const me = await signUpAndIn();
    for (const body of [
      {},
      { plan: 'gold', card: TEST_CARD },
      { plan: 'plus' },
      { plan: 'plus', card: { number: '1' } },
      [],
    ]) {
      const res = await call('POST', '/plan', { cookie: me.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await move(me.token, 'switch', { plan: 'nope' })).status).toBe(400);
    expect(await chargesOf(me.user.id)).toEqual([]);
    expect((await call('GET', '/plan')).status).toBe(401);
    expect((await call('POST', '/plan', { body: { plan: 'plus', card: TEST_CARD } })).status).toBe(401);
    // Moves that need a plan, on Free.
    for (const path of ['cancel', 'resume']) expect((await move(me.token, path)).status).toBe(409);
    expect((await move(me.token, 'switch', { plan: 'plus' })).status).toBe(409);
  });

  it('two subscriptions at once charge once', async () => {
    const me = await signUpAndIn();
    const results = await Promise.all([subscribe(me.token, 'plus'), subscribe(me.token, 'plus')]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect((await chargesOf(me.user.id)).filter((c) => c.state === 'paid')).toHaveLength(1);
    // What the card paid, less any refund: one month.
    const net = (await providerCharges(me.user.id)).reduce((n, c) => n + (c.status === 'succeeded' ? c.amount : 0), 0);
    expect(net).toBe(PLUS);
  });
});

describe('Plans: switching with proration', () => {
  it('Plus to Community mid-month: the unused time is credited towards the year', async () => {
    const me = await signUpAndIn();
    const first = (await subscribe(me.token, 'plus')).body;
    const [paid] = await chargesOf(me.user.id);
    offsetMs += 10 * DAY;
    const at = clock();
    const quote = (await view(me.token)).switch_quote!;
    const unused = unusedCents(PLUS, paid!.periodStart, new Date(first.current_period_end!), at);
    expect(quote.proration_cents).toBeGreaterThan(0);
    expect(Math.abs(quote.proration_cents - unused)).toBeLessThanOrEqual(1);
    const res = await move(me.token, 'switch', { plan: 'community' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ plan: 'community', status: 'active' });
    expect(Date.parse(res.body.current_period_end!) - clock().getTime()).toBeGreaterThan(364 * DAY);
    const switched = (await chargesOf(me.user.id)).find((c) => c.kind === 'switch')!;
    expect(switched.state).toBe('paid');
    expect(switched.amountCents).toBe(COMMUNITY);
    expect(switched.prorationCents + switched.cardCents).toBe(COMMUNITY);
    expect(Math.abs(switched.prorationCents - unused)).toBeLessThanOrEqual(2);
    // The proration and the charge, each one ledger transaction; nothing is left as credit.
    const keys = (await planTransactions()).map((t) => t.key);
    expect(keys).toContain(`plan_charge:${switched.id}:proration`);
    expect(keys).toContain(`plan_charge:${switched.id}`);
    expect(await creditBalance(db(), me.user.id)).toBe(0);
    expect(await planOf(db(), me.user.id)).toBe('community');
    expect(await ledgerTotal(db())).toBe(0);
    // Both charges on the 'Paid' tab, newest first, with their receipts' lines; a page at a time.
    const page = await call<{ items: Record<string, unknown>[]; next_cursor: string | null }>(
      'GET',
      '/plan/charges?limit=1',
      {
        cookie: me.token,
      },
    );
    expect(page.body.items).toEqual([
      expect.objectContaining({
        plan: 'community',
        kind: 'switch',
        amount_cents: COMMUNITY,
        card: 'Visa ending in 4242',
      }),
    ]);
    const next = await call<{ items: Record<string, unknown>[]; next_cursor: string | null }>(
      'GET',
      `/plan/charges?limit=1&cursor=${page.body.next_cursor}`,
      { cookie: me.token },
    );
    expect(next.body.items).toEqual([expect.objectContaining({ plan: 'plus', kind: 'subscribe', card_cents: PLUS })]);
    expect(next.body.next_cursor).toBeNull();
    expect((await call('GET', '/plan/charges?limit=abc', { cookie: me.token })).status).toBe(400);
  });

  it('Community to Plus: the unused year pays the month, the rest stays as RuralRoute credit', async () => {
    const me = await signUpAndIn();
    await subscribe(me.token, 'community');
    offsetMs += 30 * DAY;
    const res = await move(me.token, 'switch', { plan: 'plus' });
    expect(res.status).toBe(200);
    expect(res.body.plan).toBe('plus');
    const switched = (await chargesOf(me.user.id)).find((c) => c.kind === 'switch')!;
    expect(switched).toMatchObject({ amountCents: PLUS, prorationCents: PLUS, cardCents: 0 });
    const credit = await creditBalance(db(), me.user.id);
    // About 11 months of the year are left, less the month of Plus.
    expect(credit).toBeGreaterThan(COMMUNITY * 0.8 - PLUS);
    expect(credit).toBeLessThan(COMMUNITY - PLUS);
    expect(res.body.credit_cents).toBe(credit);
    // No card was charged for the switch.
    expect(await providerCharges(me.user.id)).toHaveLength(1);
    expect(await ledgerTotal(db())).toBe(0);
  });
});

describe('Plans: cancelling, renewing, failing', () => {
  it('Cancel plan: it runs to the end of its period, then the member is Free; Keep plan undoes it', async () => {
    const me = await signUpAndIn();
    const plus = (await subscribe(me.token, 'plus')).body;
    const cancelled = await move(me.token, 'cancel');
    expect(cancelled.body).toMatchObject({ plan: 'plus', cancel_at_period_end: true, switch_quote: expect.anything() });
    expect((await move(me.token, 'resume')).body.cancel_at_period_end).toBe(false);
    expect((await move(me.token, 'resume')).status).toBe(409);
    await move(me.token, 'cancel');
    // Still Plus the day before the end.
    passTo(plus.current_period_end!, -DAY);
    await sweep();
    expect(await planOf(db(), me.user.id)).toBe('plus');
    passTo(plus.current_period_end!);
    await sweep();
    expect(await view(me.token)).toMatchObject({ plan: 'free', status: null });
    expect(await planOf(db(), me.user.id)).toBe('free');
    // Never renewed.
    expect(await chargesOf(me.user.id)).toHaveLength(1);
    expect((await noticesOf(me.user.id)).map((n) => (n.data as { kind: string }).kind).sort()).toEqual([
      'ended',
      'subscribed',
    ]);
    // Subscribing again starts a new period.
    expect((await subscribe(me.token, 'plus')).body).toMatchObject({ plan: 'plus', status: 'active' });
  });

  it('a month passes: the renewal is charged once, even with two sweeps at once', async () => {
    const me = await signUpAndIn();
    const plus = (await subscribe(me.token, 'plus')).body;
    passTo(plus.current_period_end!);
    // Other tests' members are due too (one database, one clock): this member's charges are what count.
    await Promise.all([sweep(), sweep()]);
    const renewed = await view(me.token);
    expect(renewed).toMatchObject({ plan: 'plus', status: 'active' });
    expect(Date.parse(renewed.current_period_end!)).toBeGreaterThan(Date.parse(plus.current_period_end!) + 27 * DAY);
    const charges = await chargesOf(me.user.id);
    expect(charges.map((c) => [c.kind, c.state])).toEqual([
      ['subscribe', 'paid'],
      ['renewal', 'paid'],
    ]);
    expect(charges[1]!.periodStart.toISOString()).toBe(plus.current_period_end);
    expect(await providerCharges(me.user.id)).toEqual([
      { amount: PLUS, status: 'succeeded' },
      { amount: PLUS, status: 'succeeded' },
    ]);
    expect((await planTransactions()).filter((t) => t.key === `plan_charge:${charges[1]!.id}`)).toHaveLength(1);
    // A second sweep the same day renews nothing more.
    await sweep();
    expect(await chargesOf(me.user.id)).toHaveLength(2);
    expect(await ledgerTotal(db())).toBe(0);
  });

  it('a failed renewal: 7 days of grace with the notice, then back to Free', async () => {
    const me = await signUpAndIn();
    const plus = (await subscribe(me.token, 'plus')).body;
    expect((await move(me.token, 'card', { card: SAVED_THEN_DECLINED })).body.card).toMatchObject({ last4: '0341' });
    passTo(plus.current_period_end!);
    await sweep();
    const due = await view(me.token);
    expect(due).toMatchObject({ plan: 'plus', status: 'past_due' });
    expect(Date.parse(due.grace_until!) - clock().getTime()).toBeGreaterThan((PLAN_GRACE_DAYS - 1) * DAY);
    expect(await planOf(db(), me.user.id)).toBe('plus');
    const failed = (await noticesOf(me.user.id)).find((n) => (n.data as { kind: string }).kind === 'payment_failed');
    expect(failed).toBeDefined();
    // The sweep does not charge the failed card again meanwhile.
    await sweep();
    expect((await chargesOf(me.user.id)).filter((c) => c.state === 'failed')).toHaveLength(1);
    // Switching waits for a working card.
    expect((await move(me.token, 'switch', { plan: 'community' })).status).toBe(409);
    passTo(due.grace_until!);
    await sweep();
    expect(await view(me.token)).toMatchObject({ plan: 'free' });
    expect(await planOf(db(), me.user.id)).toBe('free');
    const [profile] = await db().select().from(profiles).where(eq(profiles.userId, me.user.id));
    expect(profile!.plan).toBeNull();
  });

  it('past due, then a working card: the renewal is charged at once and the plan is active again', async () => {
    const me = await signUpAndIn();
    const plus = (await subscribe(me.token, 'plus')).body;
    await move(me.token, 'card', { card: SAVED_THEN_DECLINED });
    passTo(plus.current_period_end!);
    await sweep();
    expect((await view(me.token)).status).toBe('past_due');
    // A declined card again: still past due.
    expect((await move(me.token, 'card', { card: DECLINED_CARD })).status).toBe(402);
    const res = await move(me.token, 'card', { card: TEST_CARD });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ plan: 'plus', status: 'active', grace_until: null });
    expect(Date.parse(res.body.current_period_end!)).toBeGreaterThan(Date.parse(plus.current_period_end!));
    const paid = (await chargesOf(me.user.id)).filter((c) => c.state === 'paid');
    expect(paid.map((c) => c.kind)).toEqual(['subscribe', 'renewal']);
  });
});

describe('Plans: a crash between the charge and the commit', () => {
  it('a renewal charged but never committed is applied by the sweep, never charged twice', async () => {
    const me = await signUpAndIn();
    const plus = (await subscribe(me.token, 'plus')).body;
    passTo(plus.current_period_end!);
    const [sub] = await db().select().from(planSubscriptions).where(eq(planSubscriptions.userId, me.user.id));
    // What a crash leaves: the claimed charge, the provider's charge under its key, no commit.
    const [pending] = await db()
      .insert(planCharges)
      .values({
        userId: me.user.id,
        plan: 'plus',
        kind: 'renewal',
        amountCents: PLUS,
        cardCents: PLUS,
        periodStart: sub!.currentPeriodEnd,
        periodEnd: new Date(sub!.currentPeriodEnd.getTime() + 30 * DAY),
        provider: 'test',
        createdAt: clock(),
      })
      .returning();
    await ctx.app.payments.provider.charge({
      amountCents: PLUS,
      currency: 'usd',
      idempotencyKey: `plan_charge:${pending!.id}`,
      source: { paymentMethodId: sub!.paymentMethodId! },
      description: 'crash',
      transferGroup: `plan:${me.user.id}`,
      metadata: { user_id: me.user.id, plan_charge_id: pending!.id },
    });
    // While it is pending, the sweep's renewal waits (one charge per member at a time).
    await sweep();
    expect(await chargesOf(me.user.id)).toHaveLength(2);
    offsetMs += STALE_PLAN_CHARGE_MS + 1000;
    await sweep();
    const [repaired] = await db().select().from(planCharges).where(eq(planCharges.id, pending!.id));
    expect(repaired!.state).toBe('paid');
    expect((await view(me.token)).status).toBe('active');
    // Charged once for the period.
    expect(await providerCharges(me.user.id)).toHaveLength(2);
    expect(
      await db()
        .select()
        .from(ledgerTransactions)
        .where(eq(ledgerTransactions.idempotencyKey, `plan_charge:${pending!.id}`)),
    ).toHaveLength(1);
    expect(await ledgerTotal(db())).toBe(0);
  });

  it('a first charge left pending is refunded, and the member stays Free', async () => {
    const me = await signUpAndIn();
    const [pending] = await db()
      .insert(planCharges)
      .values({
        userId: me.user.id,
        plan: 'plus',
        kind: 'subscribe',
        amountCents: PLUS,
        cardCents: PLUS,
        periodStart: clock(),
        periodEnd: new Date(clock().getTime() + 30 * DAY),
        provider: 'test',
        createdAt: clock(),
      })
      .returning();
    await ctx.app.payments.provider.charge({
      amountCents: PLUS,
      currency: 'usd',
      idempotencyKey: `plan_charge:${pending!.id}`,
      source: { card: { number: TEST_CARDS.succeeds, expiry: '12/40', cvc: '123', zip: '05401' } },
      description: 'crash',
      transferGroup: `plan:${me.user.id}`,
      metadata: { user_id: me.user.id, plan_charge_id: pending!.id },
    });
    offsetMs += STALE_PLAN_CHARGE_MS + 1000;
    await sweep();
    const [failed] = await db().select().from(planCharges).where(eq(planCharges.id, pending!.id));
    expect(failed!.state).toBe('failed');
    const refunds = rowsOf<{ amount_cents: string }>(
      await db().execute(
        sql`select r.amount_cents::text from test_provider_refunds r
            where r.idempotency_key = ${`plan_charge:${pending!.id}:refund`}`,
      ),
    );
    expect(refunds.map((r) => Number(r.amount_cents))).toEqual([PLUS]);
    expect(await planOf(db(), me.user.id)).toBe('free');
  });
});
