import { randomBytes } from 'node:crypto';
import { and, asc, eq, gte, sql } from 'drizzle-orm';
import { PAYMENT_ERRORS, TEST_CARDS } from '../../shared/payments';
import { DomainError } from '../core/domain-error';
import type { Db } from '../db/client';
import {
  testProviderAccounts,
  testProviderCharges,
  testProviderPaymentMethods,
  testProviderRefunds,
  testProviderTransfers,
} from '../db/schema';
import type {
  ChargeRequest,
  ChargeResult,
  PaymentsProvider,
  PayoutSetupRequest,
  PayoutSetupResult,
  ProviderChargeRecord,
  SaveCardRequest,
  SaveCardResult,
  ProviderTransferRecord,
  RefundRequest,
  TransferRequest,
} from './provider';

/**
 * PAYMENTS_PROVIDER=test (the default): a provider inside the app, with its own records in the same database
 * (test_provider_charges, test_provider_refunds), so `npm start` needs nothing else. It behaves as Stripe does in
 * test mode: 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined, any other number is declined too (no
 * real card is ever charged); a repeated idempotency key answers the first call's outcome. Payouts are set up with a
 * test routing and account number and are active at once; transfers are stored like charges. It is called outside
 * the app's transactions, as a remote provider would be, and keeps its records in transactions of its own.
 */
export function createTestProvider(db: Db): PaymentsProvider {
  const newId = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('hex')}`;
  /** A charge's record, once per idempotency key: prepared (built once per process, planned once per connection). */
  const chargeStatement = db
    .insert(testProviderCharges)
    .values({
      id: sql.placeholder('id'),
      idempotencyKey: sql.placeholder('idempotencyKey'),
      amountCents: sql.placeholder('amountCents'),
      currency: sql.placeholder('currency'),
      status: sql.placeholder('status'),
      cardBrand: sql.placeholder('cardBrand'),
      cardLast4: sql.placeholder('cardLast4'),
      metadata: sql.placeholder('metadata'),
    })
    .onConflictDoNothing({ target: testProviderCharges.idempotencyKey })
    .returning()
    .prepare('test_provider_charge');

  function toResult(row: typeof testProviderCharges.$inferSelect): ChargeResult {
    return row.status === 'succeeded'
      ? {
          status: 'succeeded',
          chargeId: row.id,
          cardBrand: row.cardBrand,
          cardLast4: row.cardLast4,
          amountCents: Number(row.amountCents),
        }
      : { status: 'declined', cardLast4: row.cardLast4 };
  }

  async function findCharge(idempotencyKey: string): Promise<ChargeResult | null> {
    const [row] = await db
      .select()
      .from(testProviderCharges)
      .where(eq(testProviderCharges.idempotencyKey, idempotencyKey));
    return row ? toResult(row) : null;
  }

  return {
    name: 'test',
    live: false,
    takes: 'card',

    async charge(request: ChargeRequest): Promise<ChargeResult> {
      // The card fields, or a card this provider saved (a plan's renewal); Stripe's payment methods are not its own.
      let card: { succeeds: boolean; brand: string; last4: string };
      if ('card' in request.source) {
        const number = request.source.card.number;
        card = { succeeds: number === TEST_CARDS.succeeds, brand: cardBrand(number), last4: number.slice(-4) };
      } else {
        const [saved] = await db
          .select()
          .from(testProviderPaymentMethods)
          .where(eq(testProviderPaymentMethods.id, request.source.paymentMethodId));
        if (!saved) throw new DomainError('payment_required', PAYMENT_ERRORS.payment_required.message);
        card = { succeeds: saved.outcome === 'succeeds', brand: saved.cardBrand, last4: saved.cardLast4 };
      }
      const [row] = await chargeStatement.execute({
        id: newId('ch'),
        idempotencyKey: request.idempotencyKey,
        amountCents: request.amountCents,
        currency: request.currency,
        status: card.succeeds ? 'succeeded' : 'declined',
        cardBrand: card.brand,
        cardLast4: card.last4,
        metadata: {
          ...request.metadata,
          transfer_group: request.transferGroup,
          description: request.description,
        },
      });
      if (row) return toResult(row);
      // The key was used before: its first outcome, as long as it was the same request.
      const [first] = await db
        .select()
        .from(testProviderCharges)
        .where(eq(testProviderCharges.idempotencyKey, request.idempotencyKey));
      if (!first || Number(first.amountCents) !== request.amountCents)
        throw new Error(`idempotency key ${request.idempotencyKey} was used for another charge`);
      return toResult(first);
    },

    async refund(request: RefundRequest): Promise<{ refundId: string }> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .insert(testProviderRefunds)
          .values({
            id: newId('re'),
            idempotencyKey: request.idempotencyKey,
            chargeId: request.chargeId,
            amountCents: request.amountCents,
          })
          .onConflictDoNothing({ target: testProviderRefunds.idempotencyKey })
          .returning({ id: testProviderRefunds.id });
        if (!row) {
          const [first] = await tx
            .select({ id: testProviderRefunds.id })
            .from(testProviderRefunds)
            .where(eq(testProviderRefunds.idempotencyKey, request.idempotencyKey));
          return { refundId: first!.id };
        }
        // More than was charged fails the CHECK: the provider refuses it, and the refund row goes with it.
        const charged = await tx
          .update(testProviderCharges)
          .set({ refundedCents: sql`${testProviderCharges.refundedCents} + ${request.amountCents}` })
          .where(and(eq(testProviderCharges.id, request.chargeId), eq(testProviderCharges.status, 'succeeded')))
          .returning({ id: testProviderCharges.id });
        if (!charged.length) throw new Error(`no succeeded charge ${request.chargeId} to refund`);
        return { refundId: row.id };
      });
    },

    findCharge,

    /**
     * 4242 4242 4242 4242 is saved and later charges succeed; 4000 0000 0000 0341 is saved and every later charge is
     * declined (as Stripe's test card); any other number is declined now. Only the brand and last four are kept.
     */
    async saveCard(request: SaveCardRequest): Promise<SaveCardResult> {
      if (!('card' in request.source))
        throw new DomainError('payment_required', PAYMENT_ERRORS.payment_required.message);
      const number = request.source.card.number;
      const last4 = number.slice(-4);
      const outcome =
        number === TEST_CARDS.succeeds ? 'succeeds' : number === TEST_CARDS.savedThenDeclined ? 'declines' : null;
      if (!outcome) return { status: 'declined', cardLast4: last4 };
      const [row] = await db
        .insert(testProviderPaymentMethods)
        .values({ id: newId('pm'), userId: request.userId, cardBrand: cardBrand(number), cardLast4: last4, outcome })
        .returning();
      return { status: 'saved', paymentMethodId: row!.id, cardBrand: row!.cardBrand, cardLast4: last4 };
    },

    async setupPayouts(request: PayoutSetupRequest): Promise<PayoutSetupResult> {
      if (!request.bank) throw new DomainError('validation_error', 'Enter a routing and an account number');
      const id = request.accountId ?? newId('acct');
      const last4 = request.bank.accountNumber.slice(-4);
      await db
        .insert(testProviderAccounts)
        .values({ id, userId: request.userId, routingNumber: request.bank.routingNumber, accountLast4: last4 })
        .onConflictDoUpdate({
          target: testProviderAccounts.id,
          set: { routingNumber: request.bank.routingNumber, accountLast4: last4 },
        });
      return { accountId: id, status: 'active', last4 };
    },

    async payoutAccountStatus(accountId: string): Promise<'active' | 'pending'> {
      const [row] = await db
        .select({ id: testProviderAccounts.id })
        .from(testProviderAccounts)
        .where(eq(testProviderAccounts.id, accountId));
      return row ? 'active' : 'pending';
    },

    async transfer(request: TransferRequest): Promise<{ transferId: string }> {
      const [row] = await db
        .insert(testProviderTransfers)
        .values({
          id: newId('tr'),
          idempotencyKey: request.idempotencyKey,
          accountId: request.accountId,
          amountCents: request.amountCents,
          metadata: request.metadata,
        })
        .onConflictDoNothing({ target: testProviderTransfers.idempotencyKey })
        .returning({ id: testProviderTransfers.id });
      if (row) return { transferId: row.id };
      const [first] = await db
        .select()
        .from(testProviderTransfers)
        .where(eq(testProviderTransfers.idempotencyKey, request.idempotencyKey));
      if (!first || Number(first.amountCents) !== request.amountCents)
        throw new Error(`idempotency key ${request.idempotencyKey} was used for another transfer`);
      return { transferId: first.id };
    },

    async *listCharges(since: Date): AsyncIterable<ProviderChargeRecord> {
      const rows = await db
        .select()
        .from(testProviderCharges)
        .where(gte(testProviderCharges.createdAt, since))
        .orderBy(asc(testProviderCharges.createdAt));
      for (const row of rows) {
        const metadata = row.metadata as Record<string, string>;
        yield {
          chargeId: row.id,
          paymentId: metadata.payment_id ?? null,
          amountCents: Number(row.amountCents),
          refundedCents: Number(row.refundedCents),
          status: row.status === 'succeeded' ? 'succeeded' : 'declined',
        };
      }
    },

    async *listTransfers(since: Date): AsyncIterable<ProviderTransferRecord> {
      const rows = await db
        .select()
        .from(testProviderTransfers)
        .where(gte(testProviderTransfers.createdAt, since))
        .orderBy(asc(testProviderTransfers.createdAt));
      for (const row of rows)
        yield {
          transferId: row.id,
          payoutId: (row.metadata as Record<string, string>).payout_id ?? null,
          amountCents: Number(row.amountCents),
        };
    },
  };
}

/** The card's network, from its first digits (enough for a receipt: 'Visa ending in 4242'). */
export function cardBrand(number: string): string {
  if (/^4/.test(number)) return 'visa';
  if (/^(5[1-5]|2[2-7])/.test(number)) return 'mastercard';
  if (/^3[47]/.test(number)) return 'amex';
  if (/^6(011|5)/.test(number)) return 'discover';
  return 'card';
}
