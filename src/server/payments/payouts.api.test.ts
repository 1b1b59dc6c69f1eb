import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Page } from '../../shared/marketplace';
import {
  ROUTING_NUMBER_MESSAGE,
  TEST_BANK,
  type AdminPayments,
  type EarnedItem,
  type EarningsSummary,
  type LedgerTrail,
  type PaidItem,
  type PayoutSettings,
  type Receipt,
  type Reconciliation,
} from '../../shared/payments';
import { rowsOf } from '../db/result-rows';
import { jobs, payoutAccounts, payouts, testProviderCharges, testProviderTransfers, users } from '../db/schema';
import type { JobInfo } from '../jobs';
import { setupTestApp, STRONG_PASSWORD } from '../test/harness';
import { lifecycleHelpers, TEST_CARD } from '../test/lifecycle';
import { requestBody } from '../test/marketplace';
import { startSmtpSink } from '../test/smtp-sink';
import { balances, ledgerTotal } from './ledger';
import { PAYOUT_RUN_JOB } from './payouts';

const sink = await startSmtpSink();
afterAll(() => sink.close());
/**
 * The app's clock runs `shiftMs` off the wall clock. A job is due from the database's now(), and the worker claims what
 * is due by the app's clock: set back, nothing new is due for it, so a test can act between a job's enqueue and its run
 * without the worker (woken by the enqueue's NOTIFY on PostgreSQL) running it first.
 */
let shiftMs = 0;
afterEach(() => {
  shiftMs = 0;
});
const { ctx, call, signUpAndIn, signIn } = setupTestApp(
  {
    AUTH_PER_IP_MAX: '100000',
    WRITE_LIMIT_PER_USER_MAX: '100000',
    SMTP_URL: sink.url,
  },
  { clock: () => new Date(Date.now() + shiftMs) },
);
const { act, complete, story } = lifecycleHelpers(call, signUpAndIn);
const db = () => ctx.database.db;

// requestBody's compensation is '12.5': the driver receives $12.50, the fee is $1.25, the requester pays $13.75.
const COMPENSATION = 1250;
const TOTAL = 1375;

/** A paid, chosen booking; `deliver` completes it with the code (the money released to the driver). */
async function paid(deliver = false, title = 'Feed sacks') {
  const s = await story(1, title);
  const driver = s.drivers[0]!;
  const bookingId = s.offers[0]!.id;
  const chosen = await act(s.requester.token, bookingId, 'choose', { card: TEST_CARD });
  expect(chosen.status).toBe(200);
  if (deliver) expect((await complete(driver.token, bookingId, chosen.body.delivery_code!)).status).toBe(200);
  return { ...s, driver, bookingId };
}

const get = <T>(token: string, path: string) => call<T>('GET', path, { cookie: token });
const setUp = (
  token: string,
  body: object = { routing_number: TEST_BANK.routingNumber, account_number: TEST_BANK.accountNumber },
) => call<PayoutSettings>('POST', '/payments/payouts', { cookie: token, body });
const earnings = async (token: string) => (await get<EarningsSummary>(token, '/payments/earnings')).body;

describe("'Paid' and 'Earned'", () => {
  it('each person sees only their own side, newest first, a page at a time', async () => {
    const first = await paid(false, 'Feed sacks');
    // The same requester pays twice more.
    const more = [];
    for (const title of ['Hay bales', 'Seed potatoes']) {
      const d = await signUpAndIn(`Driver of ${title}`);
      const req = await call<{ id: string }>('POST', '/requests', {
        cookie: first.requester.token,
        body: requestBody({ title }),
      });
      const offer = await call<{ id: string }>('POST', '/bookings', {
        cookie: d.token,
        body: { request_id: req.body.id },
      });
      expect((await act(first.requester.token, offer.body.id, 'choose', { card: TEST_CARD })).status).toBe(200);
      more.push({ title, driver: d });
    }
    const page1 = await get<Page<PaidItem>>(first.requester.token, '/payments/paid?limit=2');
    expect(page1.status).toBe(200);
    expect(page1.body.items.map((p) => p.title)).toEqual(['Seed potatoes', 'Hay bales']);
    expect(page1.body.items[0]).toMatchObject({ total_cents: TOTAL, refunded_cents: 0, state: 'held' });
    const page2 = await get<Page<PaidItem>>(
      first.requester.token,
      `/payments/paid?limit=2&cursor=${page1.body.next_cursor}`,
    );
    expect(page2.body).toMatchObject({ items: [{ title: 'Feed sacks' }], next_cursor: null });
    // The drivers paid nothing; each earned one delivery, in progress.
    expect((await get<Page<PaidItem>>(first.driver.token, '/payments/paid')).body.items).toEqual([]);
    const earned = await get<Page<EarnedItem>>(more[0]!.driver.token, '/payments/earned');
    expect(earned.body.items).toMatchObject([{ title: 'Hay bales', amount_cents: COMPENSATION, state: 'held' }]);
    expect(await earnings(more[0]!.driver.token)).toMatchObject({
      in_progress_cents: COMPENSATION,
      available_cents: 0,
      paid_out_cents: 0,
      payouts: 'not_set_up',
      test_mode: true,
    });
    // A cursor that is not one of ours is a 400, and a stranger sees nothing at all.
    expect((await get(first.requester.token, '/payments/paid?cursor=bogus')).status).toBe(400);
    expect((await get(first.requester.token, '/payments/paid?limit=0')).status).toBe(400);
    const stranger = await signUpAndIn('Stranger');
    expect((await get<Page<PaidItem>>(stranger.token, '/payments/paid')).body.items).toEqual([]);
    expect((await call('GET', '/payments/paid')).status).toBe(401);
  });
});

describe('receipts', () => {
  it('the requester sees what they paid and the card, the driver what they receive; nobody else anything', async () => {
    const s = await paid(true);
    const [item] = (await get<Page<PaidItem>>(s.requester.token, '/payments/paid')).body.items;
    const mine = await get<Receipt>(s.requester.token, `/payments/${item!.id}/receipt`);
    expect(mine.body).toMatchObject({
      role: 'requester',
      title: 'Feed sacks',
      compensation_cents: COMPENSATION,
      fee_cents: TOTAL - COMPENSATION,
      total_cents: TOTAL,
      card: 'Visa ending in 4242',
      state: 'released',
      driver_received_cents: COMPENSATION,
      driver_name: 'Driver 1',
    });
    const theirs = await get<Receipt>(s.driver.token, `/payments/${item!.id}/receipt`);
    expect(theirs.body).toMatchObject({ role: 'driver', fee_cents: null, total_cents: null, card: null });
    const stranger = await signUpAndIn('Stranger');
    expect((await get(stranger.token, `/payments/${item!.id}/receipt`)).status).toBe(404);
    expect((await get(stranger.token, '/payments/not-a-uuid/receipt')).status).toBe(404);
  });
});

describe('payouts', () => {
  it("released money waits as 'Available' until payouts are set up, then is paid out once", async () => {
    const s = await paid(true);
    await ctx.app.jobs.runDue();
    expect(await earnings(s.driver.token)).toMatchObject({ in_progress_cents: 0, available_cents: COMPENSATION });

    // A wrong routing number: its message, and nothing is set up.
    const bad = await setUp(s.driver.token, { routing_number: '123456789', account_number: '000123456789' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'validation_error', message: ROUTING_NUMBER_MESSAGE });
    expect((await get<PayoutSettings>(s.driver.token, '/payments/payouts')).body.state).toBe('not_set_up');

    const ok = await setUp(s.driver.token);
    expect(ok.body).toMatchObject({ state: 'active', last4: '6789', provider: 'test', test_mode: true });
    await ctx.app.jobs.runDue();
    await ctx.app.jobs.runDue();
    expect(await earnings(s.driver.token)).toMatchObject({
      available_cents: 0,
      paid_out_cents: COMPENSATION,
      payouts: 'active',
    });
    const made = await db().select().from(payouts).where(eq(payouts.userId, s.driver.user.id));
    expect(made).toMatchObject([{ state: 'paid', amountCents: COMPENSATION }]);
    const transfers = await db()
      .select()
      .from(testProviderTransfers)
      .where(eq(testProviderTransfers.idempotencyKey, `payout:${made[0]!.id}`));
    expect(transfers).toHaveLength(1);
    expect(await balances(db(), ['payouts_pending'])).toEqual([0]);
    expect(await ledgerTotal(db())).toBe(0);

    // The driver hears of it, with the bank account's last digits (and an e-mail with the receipt).
    const list = await get<Page<{ type: string; text: string }>>(s.driver.token, '/notifications');
    expect(list.body.items[0]).toMatchObject({
      type: 'payout_sent',
      text: '$12.50 was paid out to your bank account ending in 6789.',
    });
    const mail = sink.mails.find((m) => m.to.includes(s.driver.email) && m.text.includes('was paid out'));
    expect(mail?.text.replace(/\r\n/g, '\n')).toContain('Receipt\nPaid out: $12.50\nBank account: ending in 6789');
    expect(mail?.text).toContain('Note: Test mode: no real money moves.');
  });

  it('two payout runs at once pay the balance once', async () => {
    const s = await paid(true);
    await setUp(s.driver.token);
    // Drop the run the setup enqueued: the two runs below are the only ones.
    await db().execute(sql`delete from jobs where kind = ${PAYOUT_RUN_JOB} and status = 'queued'`);
    const info = { id: 0, attempts: 1 } as unknown as JobInfo;
    await Promise.all([
      ctx.app.payouts.runJob({ userId: s.driver.user.id }, info),
      ctx.app.payouts.runJob({ userId: s.driver.user.id }, info),
    ]);
    const made = await db().select().from(payouts).where(eq(payouts.userId, s.driver.user.id));
    expect(made.map((p) => p.amountCents)).toEqual([COMPENSATION]);
    await ctx.app.jobs.runDue();
    expect(await earnings(s.driver.token)).toMatchObject({ available_cents: 0, paid_out_cents: COMPENSATION });
  });

  it('a send that died after the transfer, retried, transfers once and records the payout once', async () => {
    const s = await paid(true);
    await setUp(s.driver.token);
    await db().execute(sql`delete from jobs where kind = ${PAYOUT_RUN_JOB} and status = 'queued'`);
    // The send the run enqueues is not due for the worker until the clock is back.
    shiftMs = -3_600_000;
    await ctx.app.payouts.runJob({ userId: s.driver.user.id }, { id: 0, attempts: 1 } as unknown as JobInfo);
    const [payout] = await db().select().from(payouts).where(eq(payouts.userId, s.driver.user.id));
    const [account] = await db().select().from(payoutAccounts).where(eq(payoutAccounts.userId, s.driver.user.id));
    // The process sent the transfer, then died before its transaction: the payout is still pending.
    await ctx.app.payments.provider.transfer({
      accountId: account!.providerAccountId,
      amountCents: COMPENSATION,
      currency: 'usd',
      idempotencyKey: `payout:${payout!.id}`,
      metadata: { payout_id: payout!.id, user_id: s.driver.user.id },
    });
    expect((await db().select().from(payouts).where(eq(payouts.id, payout!.id)))[0]!.state).toBe('pending');
    // The job's retry.
    shiftMs = 0;
    await ctx.app.jobs.runDue();
    const transfers = await db()
      .select()
      .from(testProviderTransfers)
      .where(eq(testProviderTransfers.idempotencyKey, `payout:${payout!.id}`));
    expect(transfers).toHaveLength(1);
    expect((await db().select().from(payouts).where(eq(payouts.id, payout!.id)))[0]!.state).toBe('paid');
    expect(await earnings(s.driver.token)).toMatchObject({ available_cents: 0, paid_out_cents: COMPENSATION });
    expect(await ledgerTotal(db())).toBe(0);
  });

  it('a release for a driver with payouts active is paid out without anything else', async () => {
    const first = await paid(true);
    await setUp(first.driver.token);
    await ctx.app.jobs.runDue();
    await ctx.app.jobs.runDue();
    // Another delivery for the same driver.
    const req = await call<{ id: string }>('POST', '/requests', {
      cookie: first.requester.token,
      body: requestBody({ title: 'Hay bales' }),
    });
    const offer = await call<{ id: string }>('POST', '/bookings', {
      cookie: first.driver.token,
      body: { request_id: req.body.id },
    });
    expect((await act(first.requester.token, offer.body.id, 'choose', { card: TEST_CARD })).status).toBe(200);
    expect((await act(first.requester.token, offer.body.id, 'receive')).status).toBe(200);
    const queued = await db().select().from(jobs).where(eq(jobs.kind, PAYOUT_RUN_JOB));
    expect(
      queued.some((j) => (j.payload as { userId: string }).userId === first.driver.user.id && j.status === 'queued'),
    ).toBe(true);
    await ctx.app.jobs.runDue();
    await ctx.app.jobs.runDue();
    expect(await earnings(first.driver.token)).toMatchObject({ available_cents: 0, paid_out_cents: 2 * COMPENSATION });
  });
});

describe('the admins’ payments page', () => {
  async function makeAdmin() {
    const account = await signUpAndIn('Ada Admin');
    await db().update(users).set({ role: 'admin' }).where(eq(users.id, account.user.id));
    return { ...account, token: await signIn(account.email, STRONG_PASSWORD) };
  }

  it('is not there for anyone but an admin', async () => {
    const person = await signUpAndIn('Pat Person');
    for (const [method, path] of [
      ['GET', '/admin/payments'],
      ['GET', '/admin/payments/list'],
      ['POST', '/admin/payments/reconcile'],
    ] as const)
      expect((await call(method, path, { cookie: person.token })).status).toBe(404);
  });

  it('shows totals, each payment with its ledger trail, and reconciles with the provider', async () => {
    const admin = await makeAdmin();
    const s = await paid(true);
    await ctx.app.jobs.runDue();
    const overview = await get<AdminPayments>(admin.token, '/admin/payments');
    expect(overview.status).toBe(200);
    // The fee is split between RuralRoute's fees and the Delivery Guarantee's reserve, shown as the ledger holds it.
    expect(overview.body.totals.fees_cents + overview.body.totals.guarantee_reserve_cents).toBeGreaterThanOrEqual(
      TOTAL - COMPENSATION,
    );
    expect(overview.body.totals.guarantee_reserve_cents).toBe((await balances(db(), ['guarantee_reserve']))[0]);
    expect(overview.body.totals.guarantee_reserve_cents).toBeGreaterThan(0);
    expect(overview.body.totals.released_cents).toBeGreaterThanOrEqual(COMPENSATION);
    const list = await get<Page<PaidItem & { driver_name: string }>>(admin.token, '/admin/payments/list?limit=5');
    const mine = list.body.items.find((p) => p.booking_id === s.bookingId)!;
    expect(mine).toMatchObject({ driver_name: 'Driver 1', state: 'released' });
    const trail = await get<LedgerTrail>(admin.token, `/admin/payments/${mine.id}/ledger`);
    expect(trail.body.transactions.map((t) => t.kind)).toEqual(['hold', 'release']);
    expect(trail.body.transactions[1]!.entries.reduce((sum, e) => sum + e.amount_cents, 0)).toBe(0);
    expect((await get(admin.token, `/admin/payments/${crypto.randomUUID()}/ledger`)).status).toBe(404);

    const clean = await call<Reconciliation>('POST', '/admin/payments/reconcile', { cookie: admin.token });
    expect(clean.status).toBe(200);
    expect(clean.body).toMatchObject({ trigger: 'admin', differences: [] });
    expect(clean.body.checked).toBeGreaterThan(0);

    // A charge the provider made that no payment of ours knows: reported, nothing changed.
    await db().insert(testProviderCharges).values({
      id: 'ch_test_stray',
      idempotencyKey: 'stray',
      amountCents: 999,
      currency: 'usd',
      status: 'succeeded',
      cardBrand: 'visa',
      cardLast4: '4242',
      metadata: {},
    });
    const found = await call<Reconciliation>('POST', '/admin/payments/reconcile', { cookie: admin.token });
    expect(found.body.differences).toEqual([
      expect.objectContaining({ kind: 'unknown_charge', id: 'ch_test_stray', provider: 999 }),
    ]);
    expect((await get<AdminPayments>(admin.token, '/admin/payments')).body.last_reconciliation?.id).toBe(found.body.id);
    const rows = rowsOf<{ n: number }>(await db().execute(sql`select count(*)::int as n from payment_reconciliations`));
    expect(rows[0]!.n).toBeGreaterThanOrEqual(2);
    await db().execute(sql`delete from test_provider_charges where id = 'ch_test_stray'`);
  });
});
