import { randomUUID } from 'node:crypto';
import { and, eq, lt, sql } from 'drizzle-orm';
import {
  cancellationSplit,
  creditApplied,
  serviceFeeCents,
  splitFeeCents,
  type CancellationCase,
} from '../../shared/money';
import { CARD_DECLINED_MESSAGE, PAYMENT_ERRORS } from '../../shared/payments';
import { DomainError } from '../core/domain-error';
import type { Db } from '../db/client';
import { isUniqueViolation } from '../db/errors';
import { bookings, deliveryRequests, payments, profiles } from '../db/schema';
import { enqueue, type JobHandler } from '../jobs';
import { notifyInput, type NewNotification } from '../notifications';
import { rowsOf } from '../db/result-rows';
import {
  creditBalanceSql,
  guarded,
  ledgerPosting,
  post,
  type LedgerPostingArg,
  type LedgerTransactionKind,
  type Line,
  type Posting,
} from './ledger';
import { enqueuePayoutRunIfActive } from './payouts';
import type { PaymentSource, PaymentsProvider } from './provider';

/**
 * The money of one booking through its life (docs/payments.md):
 *
 *   choose:   claim a 'pending' payment (one per request at a time) -> charge the card, outside any transaction, with
 *             the key payment:<id>:charge -> in choose's own transaction, 'held' and the ledger's hold. Declined:
 *             'failed', nothing else changes. Choose failing after the charge (someone moved the booking first):
 *             'voided' and the charge refunded by a job.
 *   complete / receive: 'released' in the same transaction: the driver's share to their earnings, the fee to
 *             RuralRoute.
 *   cancel:   'refunded' or 'partly_refunded' under the cancellation policy in the same transaction; the provider's
 *             refund is a job enqueued there too, so it is never lost and never sent twice.
 *
 * A crash between the charge and choose's commit leaves a 'pending' payment: `repairStale` (reconciliation) voids it
 * and refunds whatever the provider charged under its key, never charging again.
 */

export const PAYMENT_REFUND_JOB = 'payment_refund';
export const PAYMENT_VOID_JOB = 'payment_void';
/** A pending payment older than this was left by a crash (a charge takes seconds). */
export const STALE_PENDING_MS = 10 * 60_000;

export const PAYMENT_IN_PROGRESS_MESSAGE = PAYMENT_ERRORS.payment_in_progress.message;
export const CREDIT_CHANGED_MESSAGE = 'Your RuralRoute credit changed meanwhile. Try again.';

/** Of a refund, what goes back to the card: the credit that paid is given back as credit first. */
export const cardRefundCents = (refundedCents: number, creditCents: number) =>
  refundedCents - Math.min(refundedCents, creditCents);
export const PAYMENT_REQUIRED_MESSAGE = PAYMENT_ERRORS.payment_required.message;

/** A card charged for a choice, waiting for choose's transaction to hold it. */
export interface Charged {
  paymentId: string;
  bookingId: string;
  driverId: string;
  requesterId: string;
  compensationCents: number;
  feeCents: number;
  /** What the requester's RuralRoute credit pays (taken from it in choose's transaction); the card paid the rest. */
  creditCents: number;
  /** Null when the credit paid it all (no card was charged). */
  chargeId: string | null;
  cardBrand: string | null;
  cardLast4: string | null;
}

export const chargeKey = (paymentId: string) => `payment:${paymentId}:charge`;

/** One move of a payment's money: its ledger key is derived from the payment and the move, so it posts once. */
const paymentMove = (
  kind: LedgerTransactionKind,
  paymentId: string,
  bookingId: string,
  move: string,
  lines: Line[],
): Posting => ({ kind, key: `payment:${paymentId}:${move}`, paymentId, bookingId, lines });

/** How held money is divided when it is not simply released: to the card, to the driver, and fee kept. */
export interface HeldSplit {
  refundCents: number;
  driverKeepsCents: number;
  /** Service fee RuralRoute keeps (a dispute's split beyond the compensation); split with the guarantee's reserve. */
  feeKeptCents: number;
}

/**
 * Inside a cancellation's transaction (cancel, or an account deletion ending its bookings): the cancellation policy
 * decides the refund (and what the driver keeps); the provider's refund is a job enqueued in the same transaction.
 * Needs no provider: the money moves in the ledger here, at the provider later. Null for an unpaid booking.
 */
export function refundOnCancel(tx: Db, bookingId: string, c: CancellationCase) {
  return refundHeld(tx, bookingId, (compensation, fee) => ({
    ...cancellationSplit(compensation, fee, c),
    feeKeptCents: 0,
  }));
}

/**
 * Inside the caller's transaction: the booking's held money is refunded in whole or in part, as `divide` says (a
 * cancellation's policy, a moderator's decision); what the driver keeps is theirs to be paid out, any fee kept is
 * RuralRoute's (with the reserve's share). The provider's refund is a job enqueued here too. Null when nothing is
 * held.
 */
export async function refundHeld(
  tx: Db,
  bookingId: string,
  divide: (compensationCents: number, feeCents: number) => HeldSplit,
): Promise<{ paymentId: string; refundCents: number; driverKeepsCents: number; notices: NewNotification[] } | null> {
  const [held] = await tx
    .select({
      id: payments.id,
      compensationCents: payments.compensationCents,
      feeCents: payments.feeCents,
      creditCents: payments.creditCents,
      requesterId: payments.requesterId,
      cardBrand: payments.cardBrand,
      cardLast4: payments.cardLast4,
      provider: payments.provider,
    })
    .from(payments)
    .where(and(eq(payments.bookingId, bookingId), eq(payments.state, 'held')))
    .for('update');
  if (!held) return null;
  const compensation = Number(held.compensationCents);
  const fee = Number(held.feeCents);
  const { refundCents, driverKeepsCents, feeKeptCents } = divide(compensation, fee);
  if (refundCents + driverKeepsCents + feeKeptCents !== compensation + fee)
    throw new Error(`a division of payment ${held.id} does not add up to what was paid`);
  const partly = driverKeepsCents + feeKeptCents > 0;
  const [p] = await tx
    .update(payments)
    .set({
      state: partly ? 'partly_refunded' : 'refunded',
      refundedCents: refundCents,
      settledAt: sql`clock_timestamp()`,
    })
    .where(and(eq(payments.id, held.id), eq(payments.state, 'held')))
    .returning({ driverId: payments.driverId });
  const { feesCents, reserveCents } = splitFeeCents(feeKeptCents);
  // The credit that paid goes back as credit first; only the rest is owed to the card.
  const toCard = cardRefundCents(refundCents, Number(held.creditCents));
  await post(
    tx,
    paymentMove(partly ? 'partial_refund' : 'refund', held.id, bookingId, 'refund', [
      { account: { held: held.id }, amount: -(compensation + fee) },
      { account: { credit: held.requesterId }, amount: refundCents - toCard },
      { account: 'refunds_pending', amount: toCard },
      { account: { driver: p!.driverId }, amount: driverKeepsCents },
      { account: 'fees', amount: feesCents },
      { account: 'guarantee_reserve', amount: reserveCents },
    ]),
  );
  if (toCard > 0)
    await enqueue(tx, {
      kind: PAYMENT_REFUND_JOB,
      payload: { paymentId: held.id },
      dedupeKey: `payment:${held.id}:refund`,
    });
  const at = new Date().toISOString();
  const testMode = held.provider === 'test';
  const notices: NewNotification[] = [];
  if (refundCents > 0)
    notices.push({
      userId: held.requesterId,
      type: 'payment_refunded',
      bookingId,
      data: {
        compensation_cents: compensation,
        fee_cents: fee,
        total_cents: compensation + fee,
        amount_cents: refundCents,
        ...(held.cardLast4 ? { last4: held.cardLast4 } : {}),
        ...(held.cardBrand ? { card_brand: held.cardBrand } : {}),
        at,
        test_mode: testMode,
      },
    });
  // What the driver keeps for a trip made is theirs to be paid out.
  if (driverKeepsCents) {
    notices.push({
      userId: p!.driverId,
      type: 'payment_released',
      bookingId,
      data: { amount_cents: driverKeepsCents, at, test_mode: testMode },
    });
    await enqueuePayoutRunIfActive(tx, p!.driverId);
  }
  return { paymentId: held.id, refundCents, driverKeepsCents, notices };
}

/**
 * What chargeForChoice takes of a booking and its request, as columns to select (from bookings joined to requests):
 * with the requester's plan and credit as they stand, so choosing reads them in the booking's one query.
 */
export const CHOICE_COLUMNS = {
  id: bookings.id,
  requestId: bookings.requestId,
  driverId: bookings.driverId,
  requesterId: bookings.requesterId,
  compensationCents: deliveryRequests.compensationCents,
  title: deliveryRequests.title,
  // A Plus or Community requester pays no service fee (issue 38): profiles.plan, what plans/plan-of.ts reads.
  requesterPaidPlan: sql<boolean>`exists (select 1 from ${profiles} p where p.user_id = ${bookings.requesterId} and p.plan is not null)`,
  requesterCreditCents: creditBalanceSql(bookings.requesterId),
};

/** The booking's held payment, as columns to select from payments left-joined on HELD_JOIN (null when none). */
export const HELD_COLUMNS = {
  heldPaymentId: payments.id,
  heldCompensationCents: payments.compensationCents,
  heldFeeCents: payments.feeCents,
  heldProvider: payments.provider,
};
export const HELD_JOIN = and(eq(payments.bookingId, bookings.id), sql`${payments.state} = 'held'`);

/** A booking's held payment, as a release needs it. */
export interface HeldPayment {
  id: string;
  driverId: string;
  compensationCents: number;
  feeCents: number;
  provider: string;
}

/**
 * The release of a held payment: its ledger posting (the driver's share to their earnings, the fee to RuralRoute with
 * the guarantee reserve's share of it) and the driver's notice. rr_payment_release applies it (migration 0042).
 */
export function releaseOf(p: HeldPayment, bookingId: string): { ledger: LedgerPostingArg; notice: NewNotification } {
  const { feesCents, reserveCents } = splitFeeCents(p.feeCents);
  return {
    // The ledger drops a zero line (no reserve share of a small fee).
    ledger: ledgerPosting(
      paymentMove('release', p.id, bookingId, 'release', [
        { account: { held: p.id }, amount: -(p.compensationCents + p.feeCents) },
        { account: { driver: p.driverId }, amount: p.compensationCents },
        { account: 'fees', amount: feesCents },
        { account: 'guarantee_reserve', amount: reserveCents },
      ]),
    ),
    notice: {
      userId: p.driverId,
      type: 'payment_released',
      bookingId,
      data: {
        amount_cents: p.compensationCents,
        compensation_cents: p.compensationCents,
        at: new Date().toISOString(),
        test_mode: p.provider === 'test',
      },
    },
  };
}

export function createPaymentFlow(db: Db, provider: PaymentsProvider) {
  /**
   * A choice's payment, claimed 'pending' before the provider is called: a named prepared statement (every paid
   * choice runs it), so it is built once per process and planned once per connection.
   */
  const claimStatement = db
    .insert(payments)
    .values({
      id: sql.placeholder('id'),
      bookingId: sql.placeholder('bookingId'),
      requestId: sql.placeholder('requestId'),
      requesterId: sql.placeholder('requesterId'),
      driverId: sql.placeholder('driverId'),
      title: sql.placeholder('title'),
      compensationCents: sql.placeholder('compensationCents'),
      feeCents: sql.placeholder('feeCents'),
      creditCents: sql.placeholder('creditCents'),
      provider: sql.placeholder('provider'),
    })
    .returning({ id: payments.id })
    .prepare('payment_claim');

  /**
   * Before choose's transaction: charges the requester's card for a request with compensation. Returns null for a
   * request without compensation (no payment). Throws payment_required (no card), payment_in_progress (another
   * choice of this request is paying now) or card_declined; in each case nothing else has changed.
   */
  async function chargeForChoice(
    booking: {
      id: string;
      requestId: string;
      driverId: string;
      requesterId: string;
      /** The request's, as the booking was loaded with it. */
      compensationCents: number | null;
      title: string;
      requesterPaidPlan: boolean;
      /** The requester's RuralRoute credit (a bigint, as text) when the booking was loaded. */
      requesterCreditCents: string | number;
    },
    source: PaymentSource | undefined,
  ): Promise<Charged | null> {
    const compensationCents = booking.compensationCents ?? 0;
    if (compensationCents <= 0) return null;
    // A Plus or Community requester pays no service fee (issue 38): their plan as it stands when they pay.
    const feeCents = serviceFeeCents(compensationCents, booking.requesterPaidPlan);
    // RuralRoute credit pays first (issue 36); it is taken in choose's move, where the ledger refuses to spend more
    // than there is (two choices spending the same credit at once: the second fails and its charge is voided).
    const creditCents = creditApplied(compensationCents + feeCents, Number(booking.requesterCreditCents));
    const cardCents = compensationCents + feeCents - creditCents;
    // Checked before the payment is claimed: a source the provider cannot take (card fields sent to Stripe, say)
    // must not leave a pending payment that blocks the request until reconciliation.
    if (cardCents > 0 && (!source || !(provider.takes in source)))
      throw new DomainError('payment_required', PAYMENT_REQUIRED_MESSAGE);
    let paymentId: string;
    try {
      const [row] = await claimStatement.execute({
        // Chosen here, so the statements of a choice are the same whatever the database (bench/pgbench.ts replays
        // them).
        id: randomUUID(),
        bookingId: booking.id,
        requestId: booking.requestId,
        requesterId: booking.requesterId,
        driverId: booking.driverId,
        title: booking.title,
        compensationCents,
        feeCents,
        creditCents,
        provider: provider.name,
      });
      paymentId = row!.id;
    } catch (err) {
      if (isUniqueViolation(err)) throw new DomainError('payment_in_progress', PAYMENT_IN_PROGRESS_MESSAGE);
      throw err;
    }
    const parties = {
      paymentId,
      bookingId: booking.id,
      driverId: booking.driverId,
      requesterId: booking.requesterId,
      compensationCents,
      feeCents,
      creditCents,
    };
    // The credit covers it all: no card is charged.
    if (cardCents === 0) return { ...parties, chargeId: null, cardBrand: null, cardLast4: null };
    const result = await provider.charge({
      amountCents: cardCents,
      currency: 'usd',
      idempotencyKey: chargeKey(paymentId),
      source: source!,
      description: `RuralRoute delivery: ${booking.title}`,
      transferGroup: `booking:${booking.id}`,
      metadata: { payment_id: paymentId, booking_id: booking.id, request_id: booking.requestId },
    });
    if (result.status === 'declined') {
      await db
        .update(payments)
        .set({ state: 'failed', cardLast4: result.cardLast4 })
        .where(and(eq(payments.id, paymentId), eq(payments.state, 'pending')));
      throw new DomainError('card_declined', CARD_DECLINED_MESSAGE);
    }
    return {
      ...parties,
      chargeId: result.chargeId,
      cardBrand: result.cardBrand,
      cardLast4: result.cardLast4,
    };
  }

  /**
   * Choose's hold of a charged payment, as rr_booking_move takes it (migration 0042): the payment 'held' with the
   * charge's card, the ledger's hold (the card's money and any credit into the payment's held account) and the
   * driver's notice. A LedgerError from it with credit spent means the credit changed meanwhile (CREDIT_CHANGED).
   */
  function holdOf(charged: Charged) {
    const total = charged.compensationCents + charged.feeCents;
    return {
      payment_id: charged.paymentId,
      charge_id: charged.chargeId,
      card_brand: charged.cardBrand,
      card_last4: charged.cardLast4,
      ledger: ledgerPosting(
        paymentMove('hold', charged.paymentId, charged.bookingId, 'hold', [
          { account: 'outside', amount: -(total - charged.creditCents) },
          { account: { credit: charged.requesterId }, amount: -charged.creditCents },
          { account: { held: charged.paymentId }, amount: total },
        ]),
      ),
      notice: notifyInput({
        userId: charged.driverId,
        type: 'payment_held',
        actorId: charged.requesterId,
        bookingId: charged.bookingId,
        data: {
          compensation_cents: charged.compensationCents,
          at: new Date().toISOString(),
          test_mode: !provider.live,
        },
      }),
    };
  }

  /**
   * After choose's transaction failed with the card charged: the payment is voided and the charge refunded (a job,
   * enqueued with the voiding, so a crash right after cannot lose it).
   */
  async function voidCharge(charged: Charged): Promise<void> {
    await db.transaction(async (tx) => {
      const voided = await tx
        .update(payments)
        .set({ state: 'voided' })
        .where(and(eq(payments.id, charged.paymentId), eq(payments.state, 'pending')))
        .returning({ id: payments.id });
      if (voided.length)
        await enqueue(tx, {
          kind: PAYMENT_VOID_JOB,
          payload: { paymentId: charged.paymentId },
          dedupeKey: `payment:${charged.paymentId}:void`,
        });
    });
  }

  /**
   * Inside the caller's transaction (a moderator's decision for the driver): the held money goes to the driver and the
   * fee to RuralRoute, and the driver is paid out when their payouts are set up (rr_payment_release, the function
   * complete's and receive's move uses too). Returns the driver's notice, or null when nothing is held.
   */
  async function release(tx: Db, bookingId: string): Promise<NewNotification | null> {
    const [p] = await tx
      .select({
        id: payments.id,
        driverId: payments.driverId,
        compensationCents: payments.compensationCents,
        feeCents: payments.feeCents,
        provider: payments.provider,
      })
      .from(payments)
      .where(and(eq(payments.bookingId, bookingId), eq(payments.state, 'held')));
    if (!p) return null;
    const { ledger, notice } = releaseOf(
      { ...p, compensationCents: Number(p.compensationCents), feeCents: Number(p.feeCents) },
      bookingId,
    );
    const [row] = await guarded(ledger.key, async () =>
      rowsOf<{ released: boolean }>(
        await tx.execute(
          sql`select rr_payment_release(${bookingId}::uuid, ${p.id}::uuid, ${JSON.stringify(ledger)}::jsonb) as released`,
        ),
      ),
    );
    return row?.released ? notice : null;
  }

  /** The job that sends a decided refund through the provider, then moves it out of refunds_pending. */
  const refundJob: JobHandler = async (payload) => {
    const { paymentId } = payload as { paymentId: string };
    const [p] = await db.select().from(payments).where(eq(payments.id, paymentId));
    // What goes back to the card: the refund less the part returned as credit (refundHeld).
    const amount = p ? cardRefundCents(Number(p.refundedCents), Number(p.creditCents)) : 0;
    if (!p?.providerChargeId || amount <= 0) return;
    await provider.refund({
      chargeId: p.providerChargeId,
      amountCents: amount,
      idempotencyKey: `payment:${p.id}:refund`,
    });
    await db.transaction((tx) =>
      post(
        tx,
        paymentMove('refund_sent', p.id, p.bookingId, 'refund_sent', [
          { account: 'refunds_pending', amount: -amount },
          { account: 'outside', amount },
        ]),
      ),
    );
  };

  /** The job that refunds a charge whose choice failed (never held: the ledger has nothing of it). */
  const voidJob: JobHandler = async (payload) => {
    const { paymentId } = payload as { paymentId: string };
    const charge = await provider.findCharge(chargeKey(paymentId));
    if (charge?.status !== 'succeeded') return;
    await provider.refund({
      chargeId: charge.chargeId,
      amountCents: charge.amountCents,
      idempotencyKey: `payment:${paymentId}:void`,
    });
  };

  /**
   * Reconciliation's repair of a crash between a charge and choose's commit: every payment still 'pending' after
   * STALE_PENDING_MS is voided (what the provider charged under its key is refunded by the void job) or, when the
   * provider never charged it, marked failed. Nothing is ever charged again. Returns how many it repaired.
   */
  async function repairStale(now: Date): Promise<number> {
    const stale = await db
      .select({ id: payments.id })
      .from(payments)
      .where(and(eq(payments.state, 'pending'), lt(payments.createdAt, new Date(now.getTime() - STALE_PENDING_MS))));
    for (const { id } of stale) {
      const charge = await provider.findCharge(chargeKey(id));
      await db.transaction(async (tx) => {
        const changed = await tx
          .update(payments)
          .set({ state: charge?.status === 'succeeded' ? 'voided' : 'failed' })
          .where(and(eq(payments.id, id), eq(payments.state, 'pending')))
          .returning({ id: payments.id });
        if (changed.length && charge?.status === 'succeeded')
          await enqueue(tx, { kind: PAYMENT_VOID_JOB, payload: { paymentId: id }, dedupeKey: `payment:${id}:void` });
      });
    }
    return stale.length;
  }

  return { provider, chargeForChoice, holdOf, voidCharge, release, refundOnCancel, refundJob, voidJob, repairStale };
}

export type PaymentFlow = ReturnType<typeof createPaymentFlow>;
