import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, getTableColumns, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import {
  APPROVED_AMOUNT_MESSAGE,
  DECISIONS_BY_KIND,
  decisionText,
  DISPUTE_ERRORS,
  DISPUTE_PHOTOS_MAX,
  DISPUTE_WINDOW_HOURS,
  dollarsSchema,
  GUARANTEE_CAP_CENTS,
  ITEM_VALUE_MAX_CENTS,
  ITEM_VALUE_MESSAGE,
  SPLIT_AMOUNT_MESSAGE,
  TOO_MANY_PHOTOS_MESSAGE,
  type AdminDispute,
  type DisputeDecision,
  type DisputeKind,
  type DisputeReason,
} from '../../shared/disputes';
import type { BookingRole } from '../../shared/lifecycle';
import type { Page } from '../../shared/marketplace';
import { disputeSplit } from '../../shared/money';
import type { PaymentState } from '../../shared/payments';
import type { BookingStatus } from '../../shared/statuses';
import {
  BOOKING_NOT_FOUND,
  endHeldBooking,
  readPhotoUpload,
  stateChanged,
  toStoredPhoto,
  type StoredPhoto,
} from '../bookings';
import { DomainError, notFound } from '../core/domain-error';
import type { Db } from '../db/client';
import { isUniqueViolation } from '../db/errors';
import { cursorInstant, cursorUuid, keysetList, type PageRequest } from '../db/keyset';
import { rowsOf } from '../db/result-rows';
import {
  bookingEvents,
  bookings,
  deliveryRequests,
  disputePhotos,
  disputeResponses,
  disputes,
  messages,
  moderationActions,
  payments,
  profiles,
  users,
} from '../db/schema';
import { Outbox } from '../events';
import { notify, type NewNotification } from '../notifications';
import { chargebackShown, refundHeld, type PaymentFlow, type PaymentReader } from '../payments';
import { guaranteeCapOf } from '../plans';
import { enqueueClaimRetry, payClaim } from './claims';
import { disputeKindFor } from './rules';
import { selectDisputes, toDisputeView, type DisputeRow } from './view';

export const DISPUTE_NOT_FOUND = 'Dispute not found.';

const refuse = (code: keyof typeof DISPUTE_ERRORS) => new DomainError(code, DISPUTE_ERRORS[code].message);
const invalid = (message: string) => new DomainError('validation_error', message);

/** `photos` as a multipart form gives it: absent, one file, or several; at most DISPUTE_PHOTOS_MAX. */
async function readPhotos(value: unknown): Promise<StoredPhoto[]> {
  const given = value === undefined ? [] : Array.isArray(value) ? value : [value];
  // A browser sends an empty part for a file input left empty: not a photo.
  const files = given.filter((v) => !(v === '' || (v instanceof File && v.size === 0 && v.name === '')));
  if (files.length > DISPUTE_PHOTOS_MAX) throw invalid(TOO_MANY_PHOTOS_MESSAGE);
  // Every file's cheap checks first, then the costly re-encoding (bookings/photo.ts).
  const uploads = await Promise.all(files.map((f) => readPhotoUpload(f)));
  const stored: StoredPhoto[] = [];
  for (const upload of uploads) if (upload) stored.push(await toStoredPhoto(upload));
  return stored;
}

/** One side's photos of a dispute, in the order given. */
async function storePhotos(tx: Db, disputeId: string, authorId: string, photos: StoredPhoto[]) {
  if (photos.length)
    await tx.insert(disputePhotos).values(photos.map((p, position) => ({ disputeId, authorId, position, ...p })));
}

const parseCents = (value: string | undefined, message: string): number => {
  const parsed = dollarsSchema(message).safeParse(value ?? '');
  if (!parsed.success) throw invalid(message);
  return parsed.data;
};

export interface ReportInput {
  reason: DisputeReason;
  details: string;
  item_value?: string;
  photos?: unknown;
}

export interface ResponseInput {
  details: string;
  photos?: unknown;
}

export interface DecisionInput {
  decision: DisputeDecision;
  note: string;
  amount?: string;
}

/** What the decision of one dispute needs to know, read before its transaction (none of it ever changes). */
interface DisputeCase {
  id: string;
  kind: DisputeKind;
  bookingId: string;
  requestId: string;
  paymentId: string;
  driverId: string;
  requesterId: string;
  reporterId: string;
  itemValueCents: number | null;
  claimCapCents: number | null;
  compensationCents: number;
  feeCents: number;
  /** The payment has a card dispute the bank is reviewing, or decided for the cardholder. */
  chargeback: boolean;
}

const openCursor = z.tuple([cursorInstant, cursorUuid]);

/**
 * Disputes (issue 36, decision 032): reporting a problem, the other person's response, and the moderators' queue
 * and decisions. Every write is one transaction with its notices and live events; a decision also posts its money
 * to the ledger and appends its moderation_actions row there.
 */
export function createDisputeService(db: Db, deps: { payments: PaymentFlow; reader: PaymentReader }) {
  /**
   * 'Report a problem' by one of the booking's two people. The booking's row is locked first (FOR UPDATE returns
   * its newest version after any wait), so a completion or cancellation racing the report either committed before
   * (and the report sees the booking as it left it) or waits and then finds it held.
   */
  async function report(userId: string, bookingId: string, input: ReportInput): Promise<void> {
    const photos = await readPhotos(input.photos);
    await db.transaction(async (tx) => {
      const [b] = rowsOf<{
        id: string;
        request_id: string;
        status: BookingStatus;
        driver_id: string;
        requester_id: string;
        picked_up: boolean;
        in_window: boolean;
        on_hold: boolean;
        charged_back: boolean;
      }>(
        await tx.execute(sql`
          select id, request_id, status, driver_id, requester_id, picked_up_at is not null as picked_up,
            coalesce(ended_at > clock_timestamp() - make_interval(hours => ${DISPUTE_WINDOW_HOURS}), false) as in_window,
            on_hold_dispute_id is not null as on_hold, on_hold_chargeback_id is not null as charged_back
          from ${bookings}
          where id = ${bookingId} and (driver_id = ${userId} or requester_id = ${userId})
          for update`),
      );
      if (!b) throw notFound(BOOKING_NOT_FOUND);
      const role: BookingRole = b.driver_id === userId ? 'driver' : 'requester';
      const [payment] = await tx
        .select({ id: payments.id, state: payments.state })
        .from(payments)
        .where(
          and(
            eq(payments.bookingId, bookingId),
            sql`${payments.state} in ('held', 'released', 'partly_refunded', 'refunded')`,
          ),
        );
      const [open] = await tx
        .select({ id: disputes.id })
        .from(disputes)
        .where(and(eq(disputes.bookingId, bookingId), eq(disputes.state, 'open')));
      if (b.charged_back) throw refuse('chargeback_on_hold');
      if (open || b.on_hold) throw refuse('dispute_open');
      const kind = disputeKindFor(
        {
          status: b.status,
          pickedUp: b.picked_up,
          inWindow: b.in_window,
          paymentState: (payment?.state as PaymentState | undefined) ?? null,
          openDispute: false,
        },
        role,
        input.reason,
      );
      if (!kind || !payment) throw refuse('dispute_not_allowed');
      // The guarantee pays a delivery once.
      if (kind === 'claim') {
        const [approved] = await tx
          .select({ id: disputes.id })
          .from(disputes)
          .where(and(eq(disputes.bookingId, bookingId), eq(disputes.decision, 'approve')));
        if (approved) throw refuse('dispute_not_allowed');
      }
      const itemValueCents = kind === 'claim' ? parseCents(input.item_value, ITEM_VALUE_MESSAGE) : null;
      if (itemValueCents !== null && (itemValueCents < 1 || itemValueCents > ITEM_VALUE_MAX_CENTS))
        throw invalid(ITEM_VALUE_MESSAGE);
      const id = randomUUID();
      try {
        await tx.insert(disputes).values({
          id,
          bookingId,
          paymentId: payment.id,
          reporterId: userId,
          reporterRole: role,
          kind,
          reason: input.reason,
          details: input.details,
          itemValueCents,
          // Plus and Community's 'Delivery Guarantee up to $250' (issue 38): the plan as it stands when claiming.
          claimCapCents: kind === 'claim' ? await guaranteeCapOf(tx, userId) : null,
        });
      } catch (err) {
        // disputes_booking_open_key: another report of this booking committed first.
        if (isUniqueViolation(err)) throw refuse('dispute_open');
        throw err;
      }
      await storePhotos(tx, id, userId, photos);
      // While the money is held, the report holds the booking: complete, receive and cancel now find no row.
      if (kind === 'hold') await tx.update(bookings).set({ onHoldDisputeId: id }).where(eq(bookings.id, bookingId));
      const other = role === 'driver' ? b.requester_id : b.driver_id;
      const out = new Outbox();
      out.add([b.driver_id, b.requester_id], 'dispute.changed', { booking_id: bookingId });
      await notify(tx, out, [{ userId: other, type: 'dispute_opened', actorId: userId, bookingId, data: { kind } }]);
      await out.flush(tx);
    });
  }

  /** The other person's one response to the open dispute (details and up to 3 photos). */
  async function respond(userId: string, bookingId: string, input: ResponseInput): Promise<void> {
    const photos = await readPhotos(input.photos);
    await db.transaction(async (tx) => {
      const [d] = await tx
        .select({
          id: disputes.id,
          reporterId: disputes.reporterId,
          driverId: bookings.driverId,
          requesterId: bookings.requesterId,
        })
        .from(disputes)
        .innerJoin(bookings, eq(bookings.id, disputes.bookingId))
        .where(
          and(
            eq(disputes.bookingId, bookingId),
            eq(disputes.state, 'open'),
            sql`(${bookings.driverId} = ${userId} or ${bookings.requesterId} = ${userId})`,
          ),
        )
        .for('update', { of: disputes });
      if (!d) {
        const [mine] = await tx
          .select({ id: bookings.id })
          .from(bookings)
          .where(
            and(
              eq(bookings.id, bookingId),
              sql`(${bookings.driverId} = ${userId} or ${bookings.requesterId} = ${userId})`,
            ),
          );
        if (!mine) throw notFound(BOOKING_NOT_FOUND);
        throw refuse('dispute_response_not_allowed');
      }
      if (d.reporterId === userId) throw refuse('dispute_response_not_allowed');
      try {
        await tx.insert(disputeResponses).values({ disputeId: d.id, authorId: userId, details: input.details });
      } catch (err) {
        if (isUniqueViolation(err)) throw refuse('dispute_response_not_allowed');
        throw err;
      }
      await storePhotos(tx, d.id, userId, photos);
      const out = new Outbox();
      out.add([d.driverId, d.requesterId], 'dispute.changed', { booking_id: bookingId });
      await out.flush(tx);
    });
  }

  /** A dispute photo's WebP bytes, for the booking's two people and moderators only; null for anyone else. */
  async function photo(viewer: { id: string; isAdmin: boolean }, disputeId: string, photoId: string) {
    const [row] = await db
      .select({ image: disputePhotos.image })
      .from(disputePhotos)
      .innerJoin(disputes, eq(disputes.id, disputePhotos.disputeId))
      .innerJoin(bookings, eq(bookings.id, disputes.bookingId))
      .where(
        and(
          eq(disputePhotos.id, photoId),
          eq(disputePhotos.disputeId, disputeId),
          viewer.isAdmin
            ? undefined
            : sql`(${bookings.driverId} = ${viewer.id} or ${bookings.requesterId} = ${viewer.id})`,
        ),
      );
    return row?.image ?? null;
  }

  // ─── Moderators ──────────────────────────────────────────────────────────────────────────────────────────────

  const common = {
    from: () => selectDisputes(db),
    cursor: openCursor,
    bind: ([at, id]: [string, string]) => ({ at, id }),
    sortKey: (r: DisputeRow) => [r.createdAt, r.id] as const,
  };
  // Both over disputes_state_created_idx (state, created_at, id): the queue forwards, the archive backwards.
  const openList = keysetList({
    name: 'admin_disputes_open',
    ...common,
    filter: sql`${disputes.state} = 'open'`,
    after: sql`(${disputes.createdAt}, ${disputes.id}) > (${sql.placeholder('at')}::timestamptz, ${sql.placeholder('id')}::uuid)`,
    orderBy: [asc(disputes.createdAt), asc(disputes.id)],
  });
  const resolvedList = keysetList({
    name: 'admin_disputes_resolved',
    ...common,
    filter: sql`${disputes.state} = 'resolved'`,
    after: sql`(${disputes.createdAt}, ${disputes.id}) < (${sql.placeholder('at')}::timestamptz, ${sql.placeholder('id')}::uuid)`,
    orderBy: [desc(disputes.createdAt), desc(disputes.id)],
  });

  /** Everything a moderator reads of one dispute: both accounts, the payment, timeline, messages, ledger trail. */
  async function toAdmin(row: DisputeRow): Promise<AdminDispute> {
    const [b] = await db
      .select({
        id: bookings.id,
        status: bookings.status,
        title: deliveryRequests.title,
        pickedUpAt: bookings.pickedUpAt,
        endedAt: bookings.endedAt,
        driverId: bookings.driverId,
        requesterId: bookings.requesterId,
      })
      .from(bookings)
      .innerJoin(deliveryRequests, eq(deliveryRequests.id, bookings.requestId))
      .where(eq(bookings.id, row.bookingId));
    const people = await db
      .select({ id: users.id, email: users.email, fullName: profiles.fullName })
      .from(users)
      .innerJoin(profiles, eq(profiles.userId, users.id))
      .where(sql`${users.id} in (${b!.driverId}, ${b!.requesterId}, ${row.decidedBy ?? b!.driverId})`);
    const person = (id: string) => {
      const p = people.find((x) => x.id === id);
      return { id, full_name: p?.fullName ?? 'Deleted user', email: p?.email ?? '' };
    };
    const [p] = await db
      .select({ ...getTableColumns(payments), chargeback: chargebackShown() })
      .from(payments)
      .where(eq(payments.id, row.paymentId));
    const events = await db
      .select({ type: bookingEvents.type, at: bookingEvents.createdAt, actorName: profiles.fullName })
      .from(bookingEvents)
      .leftJoin(profiles, eq(profiles.userId, bookingEvents.actorId))
      .where(eq(bookingEvents.bookingId, row.bookingId))
      .orderBy(asc(bookingEvents.createdAt), asc(bookingEvents.id));
    const said = await db
      .select({ senderName: profiles.fullName, body: messages.body, at: messages.createdAt })
      .from(messages)
      .leftJoin(profiles, eq(profiles.userId, messages.senderId))
      .where(eq(messages.bookingId, row.bookingId))
      .orderBy(asc(messages.createdAt), asc(messages.id));
    const compensation = p ? Number(p.compensationCents) : 0;
    const fee = p ? Number(p.feeCents) : 0;
    return {
      ...toDisputeView(row, null),
      booking: {
        id: b!.id,
        status: b!.status,
        title: b!.title,
        picked_up_at: b!.pickedUpAt?.toISOString() ?? null,
        ended_at: b!.endedAt?.toISOString() ?? null,
      },
      driver: person(b!.driverId),
      requester: person(b!.requesterId),
      payment: p
        ? {
            state: p.state,
            compensation_cents: compensation,
            fee_cents: fee,
            total_cents: compensation + fee,
            refunded_cents: Number(p.refundedCents),
            chargeback: p.chargeback,
          }
        : null,
      claim_cap_cents:
        row.kind === 'claim' && row.itemValueCents !== null
          ? Math.min(row.claimCapCents ?? GUARANTEE_CAP_CENTS, row.itemValueCents)
          : null,
      events: events.map((e) => ({ type: e.type, at: e.at.toISOString(), actor_name: e.actorName })),
      messages: said.map((m) => ({
        sender_name: m.senderName ?? 'Deleted user',
        body: m.body,
        at: m.at.toISOString(),
      })),
      ledger: await deps.reader.trail(row.paymentId),
      decided_by: row.decidedBy ? { id: row.decidedBy, full_name: person(row.decidedBy).full_name } : null,
    };
  }

  async function list(state: 'open' | 'resolved', page: PageRequest): Promise<Page<AdminDispute>> {
    const rows = await (state === 'open' ? openList : resolvedList)({}, page, (r) => r);
    return { ...rows, items: await Promise.all(rows.items.map(toAdmin)) };
  }

  async function one(disputeId: string): Promise<AdminDispute> {
    const [row] = await selectDisputes(db).where(eq(disputes.id, disputeId));
    if (!row) throw notFound(DISPUTE_NOT_FOUND);
    return toAdmin(row);
  }

  async function loadCase(disputeId: string): Promise<DisputeCase> {
    const [d] = await db
      .select({
        id: disputes.id,
        kind: disputes.kind,
        bookingId: disputes.bookingId,
        requestId: bookings.requestId,
        paymentId: disputes.paymentId,
        driverId: bookings.driverId,
        requesterId: bookings.requesterId,
        reporterId: disputes.reporterId,
        itemValueCents: disputes.itemValueCents,
        claimCapCents: disputes.claimCapCents,
        compensationCents: payments.compensationCents,
        feeCents: payments.feeCents,
        chargeback: chargebackShown(),
      })
      .from(disputes)
      .innerJoin(bookings, eq(bookings.id, disputes.bookingId))
      .innerJoin(payments, eq(payments.id, disputes.paymentId))
      .where(eq(disputes.id, disputeId));
    if (!d) throw notFound(DISPUTE_NOT_FOUND);
    return {
      ...d,
      kind: d.kind as DisputeKind,
      compensationCents: Number(d.compensationCents),
      feeCents: Number(d.feeCents),
    };
  }

  /** The amounts a decision records, checked against the dispute before anything is written. */
  function amountsOf(d: DisputeCase, input: DecisionInput) {
    const total = d.compensationCents + d.feeCents;
    switch (input.decision) {
      case 'release':
        return { refundCents: null, releasedCents: d.compensationCents, approvedCents: null };
      case 'refund':
        return { refundCents: total, releasedCents: null, approvedCents: null };
      case 'split': {
        const refund = parseCents(input.amount, SPLIT_AMOUNT_MESSAGE);
        if (refund < 1 || refund > total - 1) throw invalid(SPLIT_AMOUNT_MESSAGE);
        const { driverKeepsCents } = disputeSplit(d.compensationCents, d.feeCents, refund);
        return { refundCents: refund, releasedCents: driverKeepsCents, approvedCents: null };
      }
      case 'approve': {
        const approved = parseCents(input.amount, APPROVED_AMOUNT_MESSAGE);
        const cap = Math.min(d.claimCapCents ?? GUARANTEE_CAP_CENTS, d.itemValueCents ?? 0);
        if (approved < 1 || approved > cap) throw invalid(APPROVED_AMOUNT_MESSAGE);
        return { refundCents: null, releasedCents: null, approvedCents: approved };
      }
      case 'decline':
        return { refundCents: null, releasedCents: null, approvedCents: null };
    }
  }

  /**
   * One moderator's decision, once: `UPDATE disputes ... WHERE state = 'open'` decides which of two moderators
   * deciding at once is first (the other gets dispute_already_decided). In the same transaction: the money (held
   * money released, refunded or split; an approved claim paid from the reserve, or left waiting for funds), the
   * booking's end for held money, the moderation log, both people's notices and the live events.
   */
  async function decide(adminId: string, disputeId: string, input: DecisionInput): Promise<AdminDispute> {
    const d = await loadCase(disputeId);
    if (!DECISIONS_BY_KIND[d.kind].includes(input.decision))
      throw invalid('This decision does not apply to this dispute.');
    // The bank decides a charged-back payment's money: RuralRoute moves none of it meanwhile (a refund, a release or a
    // claim paid on top of what the bank gives back would pay twice).
    if (d.chargeback && input.decision !== 'decline') throw refuse('chargeback_on_hold');
    const amounts = amountsOf(d, input);
    await db.transaction(async (tx) => {
      const decided = await tx
        .update(disputes)
        .set({
          state: 'resolved',
          decision: input.decision,
          note: input.note,
          refundCents: amounts.refundCents,
          releasedCents: amounts.releasedCents,
          approvedCents: amounts.approvedCents,
          decidedBy: adminId,
          decidedAt: sql`clock_timestamp()`,
        })
        .where(and(eq(disputes.id, disputeId), eq(disputes.state, 'open')))
        .returning({ id: disputes.id });
      if (!decided.length) throw refuse('dispute_already_decided');
      const out = new Outbox();
      const notices: NewNotification[] = [];
      let claimRefundCents: number | null = null;
      if (d.kind === 'hold') notices.push(...(await settleHeld(tx, d, input.decision, amounts.refundCents, out)));
      if (input.decision === 'approve') {
        const paid = await payClaim(tx, disputeId);
        if (paid) {
          claimRefundCents = paid.refundCents;
          notices.push(...paid.notices);
        } else await enqueueClaimRetry(tx, disputeId);
      }
      await tx.insert(moderationActions).values({
        adminId,
        action: moderationAction(d.kind, input.decision),
        disputeId,
        targetUserId: d.reporterId,
      });
      const text = decisionText({
        decision: input.decision,
        refund_cents: claimRefundCents ?? amounts.refundCents,
        released_cents: amounts.releasedCents,
        approved_cents: amounts.approvedCents,
      });
      for (const userId of [d.requesterId, d.driverId])
        notices.push({
          userId,
          type: 'dispute_resolved',
          bookingId: d.bookingId,
          data: { kind: d.kind, decision_text: text, note: input.note },
        });
      out.add([d.driverId, d.requesterId], 'dispute.changed', { booking_id: d.bookingId });
      await notify(tx, out, notices);
      await out.flush(tx);
    });
    return one(disputeId);
  }

  /**
   * Held money's decision: the booking leaves 'confirmed' (completed for a release or a split, cancelled 'Resolved
   * by RuralRoute' for a refund) and its money moves with it. Locks as the lifecycle does: the request first, then
   * the booking (guarded by the dispute still holding it).
   */
  async function settleHeld(
    tx: Db,
    d: DisputeCase,
    decision: DisputeDecision,
    refundCents: number | null,
    out: Outbox,
  ): Promise<NewNotification[]> {
    const completes = decision !== 'refund';
    // A card dispute that landed meanwhile holds it too: the guard finds no row then.
    const heldBy = and(eq(bookings.onHoldDisputeId, d.id), isNull(bookings.onHoldChargebackId));
    if (!(await endHeldBooking(tx, d, completes, heldBy, out))) throw stateChanged();
    if (decision === 'release') {
      const released = await deps.payments.release(tx, d.bookingId);
      return released ? [released] : [];
    }
    const refunded = await refundHeld(tx, d.bookingId, (compensation, fee) =>
      decision === 'refund'
        ? { refundCents: compensation + fee, driverKeepsCents: 0, feeKeptCents: 0 }
        : disputeSplit(compensation, fee, refundCents!),
    );
    return refunded?.notices ?? [];
  }

  return { report, respond, photo, list, one, decide };
}

function moderationAction(kind: DisputeKind, decision: DisputeDecision) {
  switch (decision) {
    case 'release':
      return 'dispute_release' as const;
    case 'refund':
      return 'dispute_refund' as const;
    case 'split':
      return 'dispute_split' as const;
    case 'approve':
      return 'claim_approve' as const;
    case 'decline':
      return kind === 'claim' ? ('claim_decline' as const) : ('dispute_close' as const);
  }
}

export type DisputeService = ReturnType<typeof createDisputeService>;
