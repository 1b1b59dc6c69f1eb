import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { PaymentQuote } from '../../shared/payments';
import { REWARD_CENTS } from '../../shared/plans';
import { ledgerTransactions, notifications, payments } from '../db/schema';
import { creditBalance, ledgerTotal } from '../payments';
import { setupTestApp } from '../test/harness';
import { lifecycleHelpers, TEST_CARD } from '../test/lifecycle';

/**
 * The plans' benefits that touch a delivery's money (issue 38), each on with a paid plan and off without: no service
 * fee for a Plus or Community requester (the quote, the charge, the ledger). The Delivery Guarantee's $250 cap is in
 * disputes.api.test.ts; ride stops, priority and the support inbox in their own features' tests.
 */
const { ctx, call, signUpAndIn } = setupTestApp({
  AUTH_PER_IP_MAX: '100000',
  WRITE_LIMIT_PER_USER_MAX: '100000',
  JOBS_POLL_MS: '3600000',
});
const { act, story, request, postRequest, offer, complete } = lifecycleHelpers(call, signUpAndIn);
const db = () => ctx.database.db;
// requestBody's compensation is '12.5': $12.50 to the driver, a $1.25 fee on Free.
const COMPENSATION = 1250;
const FEE = 125;

const quoteOf = async (token: string, requestId: string) =>
  (await request(token, requestId)).body.payment_quote as PaymentQuote;

describe('No service fees with Plus or Community', () => {
  it('a Plus requester is quoted and charged no fee; a Free one pays it', async () => {
    const plus = await story(1, 'With Plus');
    const subscribed = await call('POST', '/plan', {
      cookie: plus.requester.token,
      body: { plan: 'plus', card: TEST_CARD },
    });
    expect(subscribed.status).toBe(200);
    expect(await quoteOf(plus.requester.token, plus.request.id)).toMatchObject({
      fee_cents: 0,
      total_cents: COMPENSATION,
      card_cents: COMPENSATION,
      fee_waived_by: 'Plus',
    });
    expect((await act(plus.requester.token, plus.offers[0]!.id, 'choose')).status).toBe(200);
    const [paid] = await db().select().from(payments).where(eq(payments.bookingId, plus.offers[0]!.id));
    expect(paid).toMatchObject({ state: 'held', compensationCents: COMPENSATION, feeCents: 0 });

    const free = await story(1, 'On Free');
    expect(await quoteOf(free.requester.token, free.request.id)).toMatchObject({
      fee_cents: FEE,
      total_cents: COMPENSATION + FEE,
      fee_waived_by: null,
    });
    expect((await act(free.requester.token, free.offers[0]!.id, 'choose')).status).toBe(200);
    const [charged] = await db().select().from(payments).where(eq(payments.bookingId, free.offers[0]!.id));
    expect(charged).toMatchObject({ feeCents: FEE });
    expect(await ledgerTotal(db())).toBe(0);
  });
});

describe('Community rewards', () => {
  type Person = Awaited<ReturnType<typeof signUpAndIn>>;
  /** One whole paid delivery by `driver` for `requester`: posted, offered, chosen, completed with the code. */
  async function deliver(requester: Person, driver: Person) {
    const req = await postRequest(requester.token, 'Parcel');
    const booking = await offer(driver.token, req.id);
    const chosen = await act(requester.token, booking.id, 'choose');
    expect(chosen.status).toBe(200);
    expect((await complete(driver.token, booking.id, chosen.body.delivery_code!)).status).toBe(200);
  }
  const rewardsOf = async (userId: string) =>
    (
      await db()
        .select()
        .from(notifications)
        .where(and(eq(notifications.userId, userId), eq(notifications.type, 'plan')))
    )
      .map((n) => n.data as { kind?: string; count?: number; amount_cents?: number })
      .filter((d) => d.kind === 'reward');

  it("a Community driver's tenth completed delivery earns $5 of credit, once; a Free driver's earns nothing", async () => {
    const requester = await signUpAndIn('Ana Diaz');
    const member = await signUpAndIn('Cam Community');
    const free = await signUpAndIn('Fay Free');
    expect(
      (await call('POST', '/plan', { cookie: member.token, body: { plan: 'community', card: TEST_CARD } })).status,
    ).toBe(200);
    // Community's 'Ambassador' badge on the profile, to anyone; none for a Free member.
    const profile = (id: string) => call<{ ambassador: boolean }>('GET', `/users/${id}`, { cookie: requester.token });
    expect((await profile(member.user.id)).body.ambassador).toBe(true);
    expect((await profile(free.user.id)).body.ambassador).toBe(false);
    for (let i = 0; i < 9; i++) await deliver(requester, member);
    expect(await creditBalance(db(), member.user.id)).toBe(0);
    await deliver(requester, member);
    expect(await creditBalance(db(), member.user.id)).toBe(REWARD_CENTS);
    expect(await rewardsOf(member.user.id)).toEqual([
      expect.objectContaining({ kind: 'reward', count: 10, amount_cents: REWARD_CENTS }),
    ]);
    const posted = await db()
      .select()
      .from(ledgerTransactions)
      .where(eq(ledgerTransactions.idempotencyKey, `reward:${member.user.id}:10`));
    expect(posted.map((t) => t.kind)).toEqual(['reward']);
    // The eleventh earns nothing more.
    await deliver(requester, member);
    expect(await creditBalance(db(), member.user.id)).toBe(REWARD_CENTS);

    for (let i = 0; i < 10; i++) await deliver(requester, free);
    expect(await creditBalance(db(), free.user.id)).toBe(0);
    expect(await rewardsOf(free.user.id)).toEqual([]);
    expect(await ledgerTotal(db())).toBe(0);
  });
});
