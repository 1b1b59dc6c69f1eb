import { randomBytes } from 'node:crypto';
import { aliasedTable, and, desc, eq, getTableColumns, inArray, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Page } from '../../shared/marketplace';
import {
  CHARGEBACK_ERRORS,
  CHARGEBACK_FINAL_STATUSES,
  CHARGEBACK_STATUSES,
  TEST_CHARGEBACK_FEE_CENTS,
  type AdminChargeback,
  type ChargebackStatus,
  type CHARGEBACK_OUTCOMES,
  type PaymentState,
} from '../../shared/payments';
import { DomainError, notFound } from '../core/domain-error';
import type { Db } from '../db/client';
import { cursorInstant, cursorUuid, keysetList, type PageRequest } from '../db/keyset';
import { rowsOf } from '../db/result-rows';
import {
  bookings,
  chargebacks,
  deliveryRequests,
  disputes,
  ledgerAccounts,
  paymentWebhookEvents,
  payments,
  profiles,
  testProviderCharges,
} from '../db/schema';
import { Outbox } from '../events';
import { notify, type NewNotification } from '../notifications';
import { post } from './ledger';

export { chargebackShown } from './chargeback-shown';
import { driverReceived, RECEIPT_NOT_FOUND } from './reader';
import { storeEvent } from './webhook-events';

/**
 * Chargebacks (issue 36, decision 032, docs/payments.md 'Chargebacks'): a card dispute the requester opened with
 * their bank, as the provider reports it in charge.dispute.* events (Stripe's; the test provider raises the same
 * from the admin page). Each event is applied once (payment_webhook_events, stripe-webhooks.ts) and in any order:
 *   - the dispute's row is made or brought up to date (a closed dispute never reopens);
 *   - every balance transaction the event names is posted once under its own id: a withdrawal (the amount and the
 *     bank's fee) moves money out to the world from `chargeback_losses`, a reinstatement (a dispute won) back;
 *   - while the dispute is open, money still held for the booking stays held: the booking is put on hold (its
 *     `on_hold_chargeback_id`) as a reported problem would, so nothing completes, cancels, releases or refunds;
 *   - closed won, the hold is lifted and the booking goes on; closed lost, the held money covers the loss (the card's
 *     part, up to the disputed amount; anything else goes back as RuralRoute credit), the booking is cancelled
 *     'Resolved by RuralRoute' with the request open again, and a reported problem holding it is closed with it.
 * Money already released or paid out to the driver is not taken back: the admin page lists it for a person to decide.
 */

export const CHARGEBACK_EVENT_TYPES = [
  'charge.dispute.created',
  'charge.dispute.updated',
  'charge.dispute.funds_withdrawn',
  'charge.dispute.funds_reinstated',
  'charge.dispute.closed',
] as const;

export const isChargebackEvent = (type: string) => (CHARGEBACK_EVENT_TYPES as readonly string[]).includes(type);

/** The dispute object every charge.dispute.* event carries (the fields RuralRoute reads of Stripe's). */
const disputeObjectSchema = z.object({
  id: z.string().min(1).max(255),
  charge: z.union([z.string().min(1), z.object({ id: z.string().min(1) })]),
  amount: z.number().int().positive(),
  status: z.enum(CHARGEBACK_STATUSES),
  reason: z.string().max(100).nullish(),
  balance_transactions: z
    .array(z.object({ id: z.string().min(1).max(255), net: z.number().int(), fee: z.number().int() }))
    .default([]),
});
const eventObjectSchema = z.object({ data: z.object({ object: disputeObjectSchema }) });

/** A closed dispute's note on a reported problem it closes (lost): the bank decided, not a moderator. */
export const CHARGEBACK_DECIDED_NOTE =
  'The requester’s bank decided the card dispute for them: the payment went back to their card.';

/**
 * How RuralRoute ends a held booking (bookings' endHeldBooking): given by the app's wiring, as the booking lifecycle
 * depends on payments and not the other way round.
 */
export type EndHeldBooking = (
  tx: Db,
  b: { bookingId: string; requestId: string; driverId: string; requesterId: string },
  completes: boolean,
  heldBy: SQL | undefined,
  out: Outbox,
) => Promise<boolean>;

const FINAL = sql.raw(CHARGEBACK_FINAL_STATUSES.map((s) => `'${s}'`).join(', '));

/**
 * Applies one charge.dispute.* event inside `tx` (the transaction that marks the event processed). `provider` is the
 * event's ('stripe', 'test'): a dispute finds its payment by the provider's charge id. An event about a charge that
 * is not one of ours, or not shaped as a dispute, changes nothing.
 */
export async function applyChargebackEvent(
  tx: Db,
  provider: string,
  payload: unknown,
  endHeldBooking: EndHeldBooking,
): Promise<void> {
  const parsed = eventObjectSchema.safeParse(payload);
  if (!parsed.success) return;
  const dispute = parsed.data.data.object;
  const chargeId = typeof dispute.charge === 'string' ? dispute.charge : dispute.charge.id;
  const [payment] = await tx
    .select({
      id: payments.id,
      bookingId: payments.bookingId,
      requestId: payments.requestId,
      requesterId: payments.requesterId,
      driverId: payments.driverId,
    })
    .from(payments)
    .where(
      and(
        eq(payments.provider, provider),
        eq(payments.providerChargeId, chargeId),
        inArray(payments.state, ['held', 'released', 'refunded', 'partly_refunded']),
      ),
    );
  if (!payment) return;

  // The lifecycle's lock order (the request, then the booking), so this never waits in a circle with a completion.
  await tx.execute(sql`select 1 from ${deliveryRequests} where id = ${payment.requestId} for update`);
  await tx.execute(sql`select 1 from ${bookings} where id = ${payment.bookingId} for update`);

  const closing = isFinal(dispute.status);
  const [cb] = rowsOf<{ id: string; status: string }>(
    await tx.execute(sql`
      insert into ${chargebacks} (provider, provider_dispute_id, payment_id, booking_id, status, reason, amount_cents,
        closed_at)
      values (${provider}, ${dispute.id}, ${payment.id}, ${payment.bookingId}, ${dispute.status},
        ${dispute.reason ?? 'general'}, ${dispute.amount}, ${closing ? sql`clock_timestamp()` : null})
      on conflict (provider, provider_dispute_id) do update set
        status = case when chargebacks.status in (${FINAL}) then chargebacks.status else excluded.status end,
        closed_at = case when chargebacks.status in (${FINAL}) then chargebacks.closed_at else excluded.closed_at end,
        amount_cents = excluded.amount_cents,
        updated_at = clock_timestamp()
      returning id, status`),
  );
  const chargeback = cb!;

  for (const bt of dispute.balance_transactions) {
    if (bt.net === 0) continue;
    const posted = await post(tx, {
      kind: bt.net < 0 ? 'chargeback_withdrawn' : 'chargeback_reinstated',
      key: `chargeback:${provider}:${bt.id}`,
      paymentId: payment.id,
      bookingId: payment.bookingId,
      lines: [
        { account: 'outside', amount: -bt.net },
        { account: 'chargeback_losses', amount: bt.net },
      ],
    });
    if (posted)
      await tx
        .update(chargebacks)
        .set({
          lostCents: sql`${chargebacks.lostCents} - ${bt.net}`,
          feeCents: sql`greatest(0, ${chargebacks.feeCents} + ${bt.fee})`,
        })
        .where(eq(chargebacks.id, chargeback.id));
  }

  const out = new Outbox();
  const [b] = await tx
    .select({
      status: bookings.status,
      onHoldDisputeId: bookings.onHoldDisputeId,
      onHoldChargebackId: bookings.onHoldChargebackId,
    })
    .from(bookings)
    .where(eq(bookings.id, payment.bookingId));
  const [held] = await tx.select({ state: payments.state }).from(payments).where(eq(payments.id, payment.id));
  const stillHeld = b?.status === 'confirmed' && held?.state === 'held';

  // The driver hears when their delivery's money is held and when the bank has decided (in the app and by e-mail);
  // a lost one ends the booking, so the requester hears of it too.
  const notices: NewNotification[] = [];
  const notice = (userId: string, kind: 'opened' | 'won' | 'lost') =>
    notices.push({ userId, type: 'chargeback', bookingId: payment.bookingId, data: { kind } });
  if (!isFinal(chargeback.status)) {
    if (stillHeld && b.onHoldChargebackId === null) {
      await tx.update(bookings).set({ onHoldChargebackId: chargeback.id }).where(eq(bookings.id, payment.bookingId));
      notice(payment.driverId, 'opened');
    }
  } else if (b?.onHoldChargebackId === chargeback.id) {
    if (chargeback.status === 'lost' && stillHeld) {
      await settleLost(tx, payment, chargeback.id, dispute.amount, out, endHeldBooking);
      notice(payment.driverId, 'lost');
      notice(payment.requesterId, 'lost');
    } else {
      await tx.update(bookings).set({ onHoldChargebackId: null }).where(eq(bookings.id, payment.bookingId));
      notice(payment.driverId, 'won');
    }
  }
  out.add([payment.driverId, payment.requesterId], 'dispute.changed', { booking_id: payment.bookingId });
  await notify(tx, out, notices);
  await out.flush(tx);
}

const isFinal = (status: string) => (CHARGEBACK_FINAL_STATUSES as readonly string[]).includes(status);

/**
 * A dispute lost while its money is held: the held money covers the loss (the card's part, up to the disputed
 * amount), the rest goes back as the requester's RuralRoute credit (what their credit paid), the payment is settled
 * as refunded in full (the bank gave the card's part back), and the booking ends cancelled 'Resolved by RuralRoute'.
 * A reported problem holding it too is closed with the bank's decision as its note.
 */
async function settleLost(
  tx: Db,
  payment: { id: string; bookingId: string; requestId: string; requesterId: string; driverId: string },
  chargebackId: string,
  disputedCents: number,
  out: Outbox,
  endHeldBooking: EndHeldBooking,
): Promise<void> {
  const [p] = await tx
    .update(payments)
    .set({
      state: 'refunded',
      refundedCents: sql`${payments.compensationCents} + ${payments.feeCents}`,
      settledAt: sql`clock_timestamp()`,
    })
    .where(and(eq(payments.id, payment.id), eq(payments.state, 'held')))
    .returning({
      total: sql<string>`${payments.compensationCents} + ${payments.feeCents}`,
      credit: payments.creditCents,
    });
  if (!p) return;
  const total = Number(p.total);
  const recovered = Math.min(disputedCents, total - Number(p.credit));
  await post(tx, {
    kind: 'chargeback_recovered',
    key: `payment:${payment.id}:chargeback_recovered`,
    paymentId: payment.id,
    bookingId: payment.bookingId,
    lines: [
      { account: { held: payment.id }, amount: -total },
      { account: 'chargeback_losses', amount: recovered },
      { account: { credit: payment.requesterId }, amount: total - recovered },
    ],
  });
  await tx
    .update(chargebacks)
    .set({ lostCents: sql`${chargebacks.lostCents} - ${recovered}` })
    .where(eq(chargebacks.id, chargebackId));
  await tx
    .update(disputes)
    .set({
      state: 'resolved',
      decision: 'refund',
      note: CHARGEBACK_DECIDED_NOTE,
      refundCents: total,
      decidedAt: sql`clock_timestamp()`,
    })
    .where(and(eq(disputes.bookingId, payment.bookingId), eq(disputes.state, 'open')));
  if (!(await endHeldBooking(tx, payment, false, eq(bookings.onHoldChargebackId, chargebackId), out)))
    throw new Error(`booking ${payment.bookingId} held by chargeback ${chargebackId} could not be ended`);
}

const listCursor = z.tuple([cursorInstant, cursorUuid]);
const driverProfile = aliasedTable(profiles, 'cb_driver_profile');
const requesterProfile = aliasedTable(profiles, 'cb_requester_profile');

const refuse = (code: keyof typeof CHARGEBACK_ERRORS) => new DomainError(code, CHARGEBACK_ERRORS[code].message);

/**
 * The admin payments page's card disputes: every chargeback newest first, with what the driver received of the
 * payment and their Available balance (money paid out is not taken back automatically: an admin decides), and the
 * test provider's bank: raising a dispute on a test card payment and closing it won or lost. The test bank's events
 * are stored and applied exactly as Stripe's are (storeEvent, then the payment_webhook job).
 */
export function createChargebacks(db: Db) {
  const list = keysetList({
    name: 'chargebacks_admin',
    from: () =>
      db
        .select({
          ...getTableColumns(chargebacks),
          title: payments.title,
          paymentState: payments.state,
          compensationCents: payments.compensationCents,
          paymentFeeCents: payments.feeCents,
          refundedCents: payments.refundedCents,
          driverId: payments.driverId,
          driverName: driverProfile.fullName,
          requesterName: requesterProfile.fullName,
          onHold: sql<boolean>`${bookings.onHoldChargebackId} is not distinct from ${chargebacks.id}`.mapWith(Boolean),
          driverAvailable: sql<string>`coalesce((select ${ledgerAccounts.balance} from ${ledgerAccounts}
            where ${ledgerAccounts.key} = 'driver:' || ${payments.driverId}::text), 0)::text`,
        })
        .from(chargebacks)
        .innerJoin(payments, eq(payments.id, chargebacks.paymentId))
        .leftJoin(bookings, eq(bookings.id, chargebacks.bookingId))
        .leftJoin(driverProfile, eq(driverProfile.userId, payments.driverId))
        .leftJoin(requesterProfile, eq(requesterProfile.userId, payments.requesterId))
        .$dynamic(),
    filter: sql`true`,
    after: sql`(${chargebacks.openedAt}, ${chargebacks.id}) < (${sql.placeholder('at')}::timestamptz, ${sql.placeholder('id')}::uuid)`,
    orderBy: [desc(chargebacks.openedAt), desc(chargebacks.id)],
    cursor: listCursor,
    bind: ([at, id]) => ({ at, id }),
    sortKey: (r) => [r.openedAt.toISOString(), r.id],
  });

  const adminList = (page: PageRequest): Promise<Page<AdminChargeback>> =>
    list({}, page, (r) => ({
      id: r.id,
      payment_id: r.paymentId,
      booking_id: r.bookingId,
      title: r.title,
      requester_name: r.requesterName ?? 'Deleted user',
      driver_name: r.driverName ?? 'Deleted user',
      status: r.status as ChargebackStatus,
      reason: r.reason,
      amount_cents: Number(r.amountCents),
      fee_cents: Number(r.feeCents),
      lost_cents: Number(r.lostCents),
      opened_at: r.openedAt.toISOString(),
      closed_at: r.closedAt?.toISOString() ?? null,
      payment_state: r.paymentState as PaymentState,
      on_hold: r.onHold,
      driver_received_cents: driverReceived({
        state: r.paymentState,
        compensationCents: r.compensationCents,
        feeCents: r.paymentFeeCents,
        refundedCents: r.refundedCents,
      }),
      driver_available_cents: Number(r.driverAvailable),
      test_mode: r.provider === 'test',
    }));

  const newId = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('hex')}`;
  const eventOf = (type: string, object: DisputeObject) => ({
    id: newId('evt'),
    provider: 'test',
    type,
    payload: { id: newId('evt'), object: 'event', type, data: { object } },
  });

  /**
   * The test bank opens a card dispute of a test card payment: charge.dispute.created, then .funds_withdrawn (the
   * card's part still charged, and the bank's $15.00 fee), stored as Stripe's events would be and applied by the job.
   */
  async function raiseTest(paymentId: string): Promise<void> {
    await db.transaction(async (tx) => {
      const [p] = await tx
        .select({ provider: payments.provider, chargeId: payments.providerChargeId, bookingId: payments.bookingId })
        .from(payments)
        .where(eq(payments.id, paymentId))
        .for('update');
      if (!p) throw notFound(RECEIPT_NOT_FOUND);
      const [charge] = p.chargeId
        ? await tx.select().from(testProviderCharges).where(eq(testProviderCharges.id, p.chargeId))
        : [];
      const disputable = Number(charge?.amountCents ?? 0) - Number(charge?.refundedCents ?? 0);
      if (p.provider !== 'test' || !charge || charge.status !== 'succeeded' || disputable <= 0)
        throw refuse('chargeback_not_possible');
      // A charge is disputed once (as card networks allow).
      const [disputed] = await tx
        .select({ id: chargebacks.id })
        .from(chargebacks)
        .where(eq(chargebacks.paymentId, paymentId));
      if (disputed) throw refuse('chargeback_open');
      const object: DisputeObject = {
        id: newId('dp'),
        object: 'dispute',
        charge: charge.id,
        amount: disputable,
        currency: 'usd',
        status: 'needs_response',
        reason: 'product_not_received',
        balance_transactions: [],
      };
      await storeEvent(tx, eventOf('charge.dispute.created', object));
      const withdrawn = {
        ...object,
        balance_transactions: [
          {
            id: newId('txn'),
            amount: -disputable,
            fee: TEST_CHARGEBACK_FEE_CENTS,
            net: -(disputable + TEST_CHARGEBACK_FEE_CENTS),
          },
        ],
      };
      await storeEvent(tx, eventOf('charge.dispute.funds_withdrawn', withdrawn));
      // A marker row, so a second 'Raise' before the job ran is refused too (the job fills in the rest).
      await tx.insert(chargebacks).values({
        provider: 'test',
        providerDisputeId: object.id,
        paymentId,
        bookingId: p.bookingId,
        status: 'needs_response',
        reason: object.reason,
        amountCents: disputable,
      });
    });
  }

  /** The test bank closes a dispute it opened: charge.dispute.closed, won (the amount and fee given back) or lost. */
  async function closeTest(chargebackId: string, outcome: (typeof CHARGEBACK_OUTCOMES)[number]): Promise<void> {
    await db.transaction(async (tx) => {
      const [cb] = await tx.select().from(chargebacks).where(eq(chargebacks.id, chargebackId)).for('update');
      if (!cb) throw notFound(CHARGEBACK_NOT_FOUND);
      if (cb.provider !== 'test') throw refuse('chargeback_not_possible');
      if (cb.closedAt) throw refuse('chargeback_closed');
      // The dispute as the bank last told it (with its withdrawal), from the events it sent.
      const [last] = rowsOf<{ object: DisputeObject }>(
        await tx.execute(sql`
          select payload -> 'data' -> 'object' as object from ${paymentWebhookEvents}
          where provider = 'test' and payload -> 'data' -> 'object' ->> 'id' = ${cb.providerDisputeId}
          order by jsonb_array_length(payload -> 'data' -> 'object' -> 'balance_transactions') desc, received_at desc
          limit 1`),
      );
      if (!last) throw refuse('chargeback_not_possible');
      const withdrawn = last.object.balance_transactions;
      const reinstated =
        outcome === 'won'
          ? withdrawn.map((bt) => ({ id: newId('txn'), amount: -bt.amount, fee: -bt.fee, net: -bt.net }))
          : [];
      await storeEvent(
        tx,
        eventOf('charge.dispute.closed', {
          ...last.object,
          status: outcome,
          balance_transactions: [...withdrawn, ...reinstated],
        }),
      );
      // Closed at once for the page; the job applies the money and the booking (a closed row never reopens).
      await tx
        .update(chargebacks)
        .set({ status: outcome, closedAt: sql`clock_timestamp()`, updatedAt: sql`clock_timestamp()` })
        .where(eq(chargebacks.id, chargebackId));
    });
  }

  return { adminList, raiseTest, closeTest };
}

export type Chargebacks = ReturnType<typeof createChargebacks>;
export const CHARGEBACK_NOT_FOUND = 'This card dispute was not found.';

interface DisputeObject {
  id: string;
  object: 'dispute';
  charge: string;
  amount: number;
  currency: 'usd';
  status: string;
  reason: string;
  balance_transactions: { id: string; amount: number; fee: number; net: number }[];
}
