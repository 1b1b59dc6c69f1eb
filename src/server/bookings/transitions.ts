import { randomInt, timingSafeEqual } from 'node:crypto';
import { and, eq, isNull, ne, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import {
  DELIVERY_CODE_LOCK_MINUTES,
  DELIVERY_CODE_MAX_ATTEMPTS,
  LIFECYCLE_ERRORS,
  type BookingAction,
  type BookingEventType,
  type BookingRole,
  type CancelReason,
} from '../../shared/lifecycle';
import type { BookingStatus, RequestStatus } from '../../shared/statuses';
import { DISPUTE_ERRORS } from '../../shared/disputes';
import { DomainError, notFound } from '../core/domain-error';
import type { Db } from '../db/client';
import { isUniqueViolation, refusalCode } from '../db/errors';
import { preparedStatement } from '../db/prepared';
import { rowsOf } from '../db/result-rows';
import { bookingEvents, bookingPhotos, bookings, deliveryRequests, payments as paymentRows } from '../db/schema';
import { Outbox, type HintSender } from '../events';
import type { AttemptCounter, CountAnswer, FoldedLimits, LimitHit, WriteThrottle } from '../limits';
import { notify, notifyInput, NOTIFY_SETTINGS, type NewNotification } from '../notifications';
import {
  CHOICE_COLUMNS,
  CREDIT_CHANGED_MESSAGE,
  guarded,
  HELD_COLUMNS,
  HELD_JOIN,
  LedgerError,
  releaseOf,
  type Charged,
  type PaymentFlow,
  type PaymentSource,
} from '../payments';
import { rewardOnCompletion } from '../plans';
import { findMove, OFFER_DECLINED_BY, type Move } from './lifecycle';
import { PAGE_ARGUMENTS, type PageJson } from './page-query';
import { readPhotoUpload, toStoredPhoto } from './photo';

export const BOOKING_NOT_FOUND = 'Booking not found.';

/** `(driver_id = $viewer or requester_id = $viewer)`: a booking exists only for its two people. */
export const involves = (viewerId: string | SQLWrapper) =>
  sql`(${bookings.driverId} = ${viewerId} or ${bookings.requesterId} = ${viewerId})`;

const FINAL_STATUSES: ReadonlySet<BookingStatus> = new Set(['completed', 'declined', 'cancelled']);

export const stateChanged = () =>
  new DomainError('booking_state_changed', LIFECYCLE_ERRORS.booking_state_changed.message);
/**
 * An open dispute, or a card dispute the bank is reviewing, holds the booking (issue 36): it can be neither completed
 * nor cancelled until decided. The refusal names which.
 */
export const onHold = (by: Hold = 'dispute') =>
  by === 'chargeback'
    ? new DomainError('chargeback_on_hold', DISPUTE_ERRORS.chargeback_on_hold.message)
    : new DomainError('dispute_on_hold', DISPUTE_ERRORS.dispute_on_hold.message);

type Hold = 'dispute' | 'chargeback';
/** What holds a booking, from its two hold columns (a reported problem first: it is what people see). */
export const holdOf = (b: { onHoldDisputeId: string | null; onHoldChargebackId: string | null }): Hold | null =>
  b.onHoldDisputeId ? 'dispute' : b.onHoldChargebackId ? 'chargeback' : null;

/** The guard of every move out of 'confirmed': nothing holds the booking. */
export const notOnHold = () => and(isNull(bookings.onHoldDisputeId), isNull(bookings.onHoldChargebackId));

/** What holds the booking now (why a guarded move out of 'confirmed' found no row), or null. */
async function heldBy(tx: Db, bookingId: string): Promise<Hold | null> {
  const [row] = await tx
    .select({ onHoldDisputeId: bookings.onHoldDisputeId, onHoldChargebackId: bookings.onHoldChargebackId })
    .from(bookings)
    .where(eq(bookings.id, bookingId));
  return row ? holdOf(row) : null;
}

/** What an action carries besides the booking: cancel's reason, complete's code and photo. */
export interface ActionInput {
  reason?: CancelReason;
  details?: string | null;
  code?: string;
  /** The multipart `photo` field as parsed (a File, or anything a client sent under that name). */
  photo?: unknown;
  /** choose on a request with compensation: what pays (docs/payments.md). */
  source?: PaymentSource;
}

type EventRow = typeof bookingEvents.$inferInsert;

/** A booking's participants, as every event row carries them. */
interface Parties {
  id: string;
  driverId: string;
  requesterId: string;
}

export function eventRow(booking: Parties, actorId: string | null, type: BookingEventType, from: string, to: string) {
  return {
    bookingId: booking.id,
    driverId: booking.driverId,
    requesterId: booking.requesterId,
    actorId,
    type,
    fromStatus: from,
    toStatus: to,
  } satisfies EventRow;
}

/** Tells both people of a booking, live, that it moved (the stream's `booking.changed`). */
export function announce(
  out: Outbox,
  booking: Parties & { requestId: string },
  status: BookingStatus,
  eventType: BookingEventType,
): void {
  out.add([booking.driverId, booking.requesterId], 'booking.changed', {
    booking_id: booking.id,
    request_id: booking.requestId,
    status,
    event_type: eventType,
  });
}

/** 6 random digits (a CSPRNG, uniform), '000000' to '999999'. */
const newDeliveryCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0');

/** Constant-time comparison of two 6-digit strings (both already checked to be 6 ASCII digits). */
function sameCode(given: string, stored: string): boolean {
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(stored, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

const CODE_LIMIT = { max: DELIVERY_CODE_MAX_ATTEMPTS, windowMs: DELIVERY_CODE_LOCK_MINUTES * 60_000 };

/**
 * Declines every pending offer on a request, as the system, inside the caller's transaction (which holds the
 * request's row lock): after choose (`other_chosen`) and when the owner withdraws the request
 * (`request_withdrawn`, actor = the owner). Returns each declined driver's notice ('offer_declined' with the
 * cause), for the caller's one `notify` of the transaction.
 */
export async function declinePendingOffers(
  tx: Db,
  requestId: string,
  cause: keyof typeof OFFER_DECLINED_BY,
  actorId: string | null,
  out: Outbox,
  except?: string,
): Promise<NewNotification[]> {
  return declineOffersWhere(
    tx,
    and(eq(bookings.requestId, requestId), except ? ne(bookings.id, except) : undefined),
    cause,
    actorId,
    out,
  );
}

/**
 * declinePendingOffers over any set of bookings (`where`, besides being pending): one request's, or every request
 * of one owner at once (account deletion, account-exit.ts). The caller holds the requests' row locks.
 */
export async function declineOffersWhere(
  tx: Db,
  where: SQL | undefined,
  cause: keyof typeof OFFER_DECLINED_BY,
  actorId: string | null,
  out: Outbox,
): Promise<NewNotification[]> {
  const { from, to } = OFFER_DECLINED_BY[cause];
  // One statement: the offers declined and each one's event. Statuses are literals, like every status filter over a
  // range of bookings (the pool plans generically).
  const declined = rowsOf<Parties & { requestId: string }>(
    await tx.execute(sql`
      with declined as (
        update ${bookings} set status = ${sql.raw(`'${to}'`)}, ended_at = clock_timestamp()
        where ${and(where, sql`${bookings.status} = ${sql.raw(`'${from}'`)}`)}
        returning id, request_id, driver_id, requester_id
      ), events as (
        insert into ${bookingEvents} (booking_id, driver_id, requester_id, actor_id, type, from_status, to_status)
        select id, driver_id, requester_id, ${actorId}::uuid, ${cause}, ${from}, ${to} from declined
      )
      select id, request_id as "requestId", driver_id as "driverId", requester_id as "requesterId" from declined`),
  );
  for (const b of declined) announce(out, b, to, cause);
  return declined.map((b) => ({
    userId: b.driverId,
    type: 'offer_declined',
    actorId,
    bookingId: b.id,
    data: { cause },
  }));
}

/**
 * Declines every pending offer between two people, in either direction (a's offers on b's requests and b's on
 * a's), inside the caller's transaction: a block ends what is still only an offer. Event 'declined' with the
 * blocker as actor, like a requester's decline; confirmed bookings are left to run their course. Returns the
 * notices for the caller's `notify`: a driver whose offer the blocker declined hears it as a plain decline; the
 * blocker's own offers end silently.
 */
export async function declineOffersBetween(
  tx: Db,
  a: string,
  b: string,
  actorId: string,
  out: Outbox,
): Promise<NewNotification[]> {
  const between = sql`((${bookings.driverId} = ${a} and ${bookings.requesterId} = ${b}) or (${bookings.driverId} = ${b} and ${bookings.requesterId} = ${a}))`;
  const notices = await declineOffersWhere(tx, between, 'declined', actorId, out);
  return notices.filter((notice) => notice.userId !== actorId);
}

/**
 * The other person's notice of a move (docs/notifications.md): whoever acted is never told. Every move has one;
 * the timeline's event says which.
 */
function noticeOf(move: Move, booking: Parties, actorId: string, input: ActionInput): NewNotification {
  const other = actorId === booking.driverId ? booking.requesterId : booking.driverId;
  const base = { userId: other, actorId, bookingId: booking.id };
  switch (move.event) {
    case 'chosen':
      return { ...base, type: 'offer_chosen' };
    case 'declined':
      return { ...base, type: 'offer_declined', data: { cause: 'declined' } };
    case 'withdrawn':
      return { ...base, type: 'booking_cancelled', data: { reason: 'withdrawn' } };
    case 'picked_up':
      return { ...base, type: 'picked_up' };
    case 'completed':
      return { ...base, type: 'delivery_completed', data: { how: 'completed' } };
    case 'received':
      return { ...base, type: 'delivery_completed', data: { how: 'received' } };
    case 'cancelled':
      return { ...base, type: 'booking_cancelled', data: input.reason ? { reason: input.reason } : {} };
    default:
      // The system's moves (other_chosen, request_withdrawn) are not in the table: declinePendingOffers tells.
      throw new Error(`no notice for the move '${move.event}'`);
  }
}

/** The load's columns that are never null once the booking was found (its left joins make them nullable). */
const JOINED_COLUMNS = ['id', 'requestId', 'driverId', 'requesterId', 'title', 'status', 'requestStatus'] as const;

/** Whether the left-joined row was found: `keys` are then known not to be null. */
function joined<T, K extends keyof T>(row: T, keys: readonly K[]): row is T & { [P in K]: NonNullable<T[P]> } {
  return keys.every((k) => row[k] !== null && row[k] !== undefined);
}

/**
 * One move of a booking (every move but cancel) in one statement: rr_booking_move (migration 0042), run by
 * rr_booking_move_hinted (migration 0046), which answers the move's NOTIFYs for the caller to send once it has
 * committed (events/hints.ts, decision 047), run by rr_booking_move_answered (migration 0047), which also answers the
 * booking's page as the actor now sees it (page-query.ts, decision 048).
 */
const moveStatement = preparedStatement(
  'booking_move',
  () => sql`select rr_booking_move_answered(${sql.placeholder('move')}::jsonb, ${PAGE_ARGUMENTS}) as answer`,
);
interface MoveAnswer {
  hints: unknown;
  page: PageJson | null;
}
const answerOf = (result: unknown) => rowsOf<{ answer: MoveAnswer }>(result)[0]!.answer;

/** A refusal rr_booking_move raised (SQLSTATE RR409, its code as the message), as the API answers it. */
function refusalFrom(code: string): DomainError {
  if (code === 'dispute_on_hold') return onHold('dispute');
  if (code === 'chargeback_on_hold') return onHold('chargeback');
  // Reconciliation voided the payment meanwhile (a choose that took longer than STALE_PENDING_MS).
  if (code === 'payment_voided')
    return new DomainError('payment_in_progress', 'This payment could not be completed. Try again.');
  return stateChanged();
}

/**
 * Runs the lifecycle's moves (lifecycle.ts). Each one is one transaction: the request row first when the move touches
 * it, moved by a guarded `UPDATE delivery_requests ... WHERE status = $expected` that also locks it (so choose,
 * cancel, complete and receive on one request take turns, and an accept holding FOR SHARE finishes before or sees the
 * new status), then a guarded `UPDATE bookings ... WHERE id = $id AND status = $expected`: no row means someone else
 * moved the booking first, and the answer is 409 booking_state_changed. Every move appends its booking_events row(s)
 * in the same transaction, with its notices and live events.
 *
 * Every move but cancel is one statement in autocommit, the database function rr_booking_move (migration 0042,
 * decision 038): what is decided here (the delivery code, the ledger's lines, the notices) is its argument. A
 * completion with a photo runs it in a transaction that stores the photo first. Cancel, whose refund depends on the
 * pickup as committed when the booking's row is locked, runs here statement by statement (`cancel`).
 */
export function createTransitions(
  db: Db,
  attempts: AttemptCounter,
  payments: PaymentFlow,
  /** The write throttle, counted in the move's read (limits/middleware.ts). */
  throttle: WriteThrottle,
  /** Sends a move's NOTIFYs once it has committed. */
  hints: HintSender,
) {
  /**
   * The move's one read, prepared once (planned per connection): the write throttle's hit (rr_count_hits, counted
   * whether or not the booking is found, as the middleware counted it), then the booking, its request and what paying
   * needs. The hit is its own row, left-joined to the booking's, so a booking that is not found still counts.
   */
  const hit = sql`(select rr_count_hits(${sql.placeholder('hits')}::jsonb) as counted) as hit`;
  const loadStatement = db
    .select({
      counted: sql<CountAnswer>`hit.counted`,
      // What choosing pays (payments/flow.ts), and what completing releases, read here rather than in queries of
      // their own.
      ...CHOICE_COLUMNS,
      ...HELD_COLUMNS,
      status: bookings.status,
      deliveryCode: bookings.deliveryCode,
      pickedUpAt: bookings.pickedUpAt,
      onHoldDisputeId: bookings.onHoldDisputeId,
      onHoldChargebackId: bookings.onHoldChargebackId,
      requestStatus: deliveryRequests.status,
    })
    .from(hit)
    .leftJoin(bookings, and(eq(bookings.id, sql.placeholder('bookingId')), involves(sql.placeholder('userId'))))
    .leftJoin(deliveryRequests, eq(deliveryRequests.id, bookings.requestId))
    .leftJoin(paymentRows, HELD_JOIN)
    .prepare('booking_move_load');

  async function load(userId: string, bookingId: string, limits: FoldedLimits) {
    const [row] = await loadStatement.execute({ bookingId, userId, hits: limits.json });
    if (!row) throw new Error('booking_move_load answered no row');
    // The write throttle's refusal comes first; the delivery code's lock only once the move is known to need it.
    const refused = limits.refusal(row.counted);
    const codeLocked = refused?.code === 'delivery_code_locked' ? refused : null;
    if (refused && !codeLocked) throw refused;
    const { counted: _counted, ...booking } = row;
    // Only the booking's two people learn that it exists.
    if (!joined(booking, JOINED_COLUMNS)) throw notFound(BOOKING_NOT_FOUND);
    const role: BookingRole = booking.driverId === userId ? 'driver' : 'requester';
    // The columns' CHECKs are built from the shared status lists.
    return {
      ...booking,
      role,
      codeLocked,
      status: booking.status as BookingStatus,
      requestStatus: booking.requestStatus as RequestStatus,
      onHold: holdOf(booking) !== null,
      hold: holdOf(booking),
    };
  }
  type Loaded = Awaited<ReturnType<typeof load>>;

  /** The delivery code's tries on a booking: over DELIVERY_CODE_MAX_ATTEMPTS in the window, it is locked. */
  const codeLockOf = (retryAfterSeconds: number) =>
    new DomainError('delivery_code_locked', LIFECYCLE_ERRORS.delivery_code_locked.message, { retryAfterSeconds });
  /** Whether one more try would pass, counting nothing: checked in the move's read, so a right code costs no round trip. */
  const codeCheck = (bookingId: string): LimitHit => ({
    scope: 'delivery-code',
    subject: bookingId,
    limit: CODE_LIMIT,
    check: true,
    refuse: codeLockOf,
  });

  /**
   * complete's proof, before any write. A photo that is not even a JPEG, PNG or WebP of at most 10 MB is refused
   * first (no try counted). The code is compared in constant time; the tries go through attempt_counters (atomic
   * upserts, shared by every instance): a right one was only checked, in the move's read (it would give its count
   * back), a wrong one is counted here, both in the order of the tries on the key, so parallel guesses see distinct
   * counts and at most DELIVERY_CODE_MAX_ATTEMPTS are answered per window; past it every try, a right one too, is told
   * to wait, so the comparison tells nothing then. Only wrong codes lock. Last, the photo is decoded and re-encoded
   * (the costly part, for the driver who knows the code only); a file that fails refuses the whole completion.
   */
  async function proveHandoff(
    booking: { id: string; deliveryCode: string | null; codeLocked: DomainError | null },
    input: ActionInput,
  ) {
    const upload = await readPhotoUpload(input.photo);
    const right = booking.deliveryCode !== null && sameCode(input.code ?? '', booking.deliveryCode);
    if (right && booking.codeLocked) throw booking.codeLocked;
    if (!right) {
      const counted = await attempts.hit('delivery-code', booking.id, CODE_LIMIT);
      throw counted.allowed
        ? new DomainError('wrong_delivery_code', LIFECYCLE_ERRORS.wrong_delivery_code.message)
        : codeLockOf(counted.retryAfterSeconds);
    }
    return upload ? toStoredPhoto(upload) : undefined;
  }

  /**
   * Takes `action` on the booking as `userId`: 429 over the write throttle (counted in the move's read), 404
   * to anyone but its two people, 409 when the table forbids it. Answers the booking's page as the move left it, as
   * `userId` sees it, or null for cancel (the caller reads it).
   */
  async function perform(
    userId: string,
    bookingId: string,
    action: BookingAction,
    input: ActionInput = {},
  ): Promise<PageJson | null> {
    // Completing with the code also checks the code's tries, in the same read.
    const limits = throttle.folded(userId, ...(action === 'complete' ? [codeCheck(bookingId)] : []));
    const booking = await load(userId, bookingId, limits);
    const move = findMove(action, booking.role, booking);
    if (!move)
      throw booking.onHold && booking.status === 'confirmed' ? onHold(booking.hold ?? 'dispute') : stateChanged();
    const photo = move.needsCode ? await proveHandoff(booking, input) : undefined;
    // Choosing a driver on a paid request charges the card first, outside the transaction (a provider's call must
    // not hold row locks); the move then holds the money with the confirmation, or the charge is voided.
    const charged = move.action === 'choose' ? await payments.chargeForChoice(booking, input.source) : null;
    try {
      if (move.action === 'cancel') {
        await db.transaction((tx) => cancel(tx, move, booking, userId, input));
        return null;
      }
      const arg = JSON.stringify(moveArgument(move, booking, userId, charged));
      const committed = await guarded(`${move.action} of booking ${booking.id}`, async () => {
        if (!photo) return answerOf(await moveStatement(db, { move: arg }));
        return db.transaction(async (tx) => {
          await tx.insert(bookingPhotos).values({ bookingId: booking.id, ...photo });
          return answerOf(await moveStatement(tx, { move: arg }));
        });
      });
      hints.send(committed.hints);
      return committed.page;
    } catch (err) {
      if (charged) await payments.voidCharge(charged);
      // The partial unique index on chosen bookings: a second confirmation can never be stored.
      if (isUniqueViolation(err)) throw stateChanged();
      const refused = refusalCode(err);
      if (refused) throw refusalFrom(refused);
      // The credit was spent meanwhile by another choice of the same person: this one fails whole (its charge is
      // voided above) and can be tried again with the credit as it now is.
      if (err instanceof LedgerError && charged && charged.creditCents > 0)
        throw new DomainError('payment_in_progress', CREDIT_CHANGED_MESSAGE);
      throw err;
    }
  }

  /** rr_booking_move's argument for `move` (see the migration for what each field does). */
  function moveArgument(move: Move, booking: Loaded, actorId: string, charged: Charged | null) {
    const completes = move.to === 'completed';
    const held = completes && booking.heldPaymentId ? booking : null;
    const release = held
      ? releaseOf(
          {
            id: held.heldPaymentId!,
            driverId: held.driverId,
            compensationCents: Number(held.heldCompensationCents),
            feeCents: Number(held.heldFeeCents),
            provider: held.heldProvider!,
          },
          booking.id,
        )
      : null;
    return {
      booking: booking.id,
      request: booking.requestId,
      driver: booking.driverId,
      requester: booking.requesterId,
      actor: actorId,
      event: move.event,
      from: move.from,
      to: move.to,
      request_from: move.request?.from ?? null,
      request_to: move.request?.to ?? null,
      // The code exists exactly while confirmed (a CHECK says so too): issued on choose, gone on leaving.
      ...(move.to === 'confirmed' && move.from !== 'confirmed' ? { code: newDeliveryCode() } : {}),
      picked_up: move.once === 'picked_up',
      // completed, declined and cancelled are final: the conversation's 30 days start now.
      final: FINAL_STATUSES.has(move.to),
      // A dispute reported meanwhile holds the booking: the booking's row lock decides which of the two came first.
      guard_hold: move.from === 'confirmed',
      declines: move.declinesOtherOffers ? { ...OFFER_DECLINED_BY.other_chosen, cause: 'other_chosen' } : null,
      notice: notifyInput(noticeOf(move, booking, actorId, {})),
      // The money moves with the booking, in the same statement (docs/payments.md).
      hold: charged ? payments.holdOf(charged) : null,
      release: release && {
        payment_id: held!.heldPaymentId,
        ledger: release.ledger,
        notice: notifyInput(release.notice),
      },
      // Community's rewards: the 10th, 25th and 50th completed delivery earn credit (issue 38).
      reward: completes ? rewardOnCompletion(booking.driverId) : null,
      notify: NOTIFY_SETTINGS,
    };
  }

  /** A cancellation, in the caller's transaction: the booking's move, its notice, and the refund its policy says. */
  async function cancel(tx: Db, move: Move, booking: Loaded, actorId: string, input: ActionInput) {
    if (move.request) {
      // The request's row first (locked by this guarded update, as accept's FOR SHARE waits on it), moved at once.
      const moved = await tx
        .update(deliveryRequests)
        .set({ status: move.request.to })
        .where(and(eq(deliveryRequests.id, booking.requestId), eq(deliveryRequests.status, move.request.from)))
        .returning({ id: deliveryRequests.id });
      if (!moved.length) throw stateChanged();
    }
    const update = tx
      .update(bookings)
      .set({ status: move.to, deliveryCode: null, endedAt: sql`clock_timestamp()` })
      .where(and(eq(bookings.id, booking.id), eq(bookings.status, move.from), notOnHold()))
      // picked_up_at as committed when this row was locked: a pickup that landed after `load` read the booking
      // still decides the cancellation policy (the requester cancelling after pickup refunds only part).
      .returning({ id: bookings.id, pickedUpAt: bookings.pickedUpAt });
    // One statement: the guarded move and its booking_events row (none when the move found the booking moved).
    const changed = rowsOf<{ id: string; picked_up_at: unknown }>(
      await tx.execute(sql`
        with changed as (${update.getSQL()}), events as (
          insert into ${bookingEvents}
            (booking_id, driver_id, requester_id, actor_id, type, from_status, to_status, reason, details)
          select id, ${booking.driverId}::uuid, ${booking.requesterId}::uuid, ${actorId}::uuid, ${move.event},
            ${move.from}, ${move.to}, ${input.reason ?? null}, ${input.details ?? null}
          from changed
        )
        select id, picked_up_at from changed`),
    );
    if (!changed.length) {
      const hold = await heldBy(tx, booking.id);
      throw hold ? onHold(hold) : stateChanged();
    }
    const out = new Outbox();
    announce(out, booking, move.to, move.event);
    const notices = [noticeOf(move, booking, actorId, input)];
    // The money moves with the booking, in this transaction (docs/payments.md).
    const refunded = await payments.refundOnCancel(tx, booking.id, {
      by: move.role,
      pickedUp: changed[0]!.picked_up_at !== null,
    });
    if (refunded) notices.push(...refunded.notices);
    await notify(tx, out, notices);
    // Last: the outbox takes its locks after every other lock of the transaction (events/outbox.ts).
    await out.flush(tx);
  }

  return { perform };
}

export type Transitions = ReturnType<typeof createTransitions>;
