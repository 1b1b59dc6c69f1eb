import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { PaymentQuote } from '../../shared/payments';
import { payments } from '../db/schema';
import { ledgerTotal } from '../payments';
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
const { act, story, request } = lifecycleHelpers(call, signUpAndIn);
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
