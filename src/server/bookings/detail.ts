import { aliasedTable, and, eq, inArray, sql } from 'drizzle-orm';
import type {
  BookingDetail,
  BookingEvent,
  BookingEventType,
  BookingRole,
  AnyCancelReason,
} from '../../shared/lifecycle';
import { DISPUTE_WINDOW_HOURS } from '../../shared/disputes';
import { cancellationSplit, centsToDecimal, quoteFor } from '../../shared/money';
import {
  PAYMENT_STATES,
  TEST_CHECKOUT,
  type BookingPayment,
  type PaymentCheckout,
  type PaymentState,
} from '../../shared/payments';
import type { BookingStatus, RequestStatus } from '../../shared/statuses';
import { notFound } from '../core/domain-error';
import type { Db } from '../db/client';
import { bookingEvents, bookingPhotos, bookings, deliveryRequests, disputes, payments, profiles } from '../db/schema';
import { latestDispute, mayReport } from '../disputes';
import { chargebackShown, creditBalanceSql } from '../payments';
import { ambassadorOf, feeWaiverFor, guaranteeCapFor, planFrom } from '../plans';
import { actionsFor } from './lifecycle';
import { BOOKING_NOT_FOUND, holdOf, involves } from './transitions';

const driverProfile = aliasedTable(profiles, 'driver_profile');
const requesterProfile = aliasedTable(profiles, 'requester_profile');

/** The booking page (`GET /bookings/:id`, and the answer of every action) and the handoff photo. */
/** One timeline event as the booking query aggregates it (json_agg below). */
interface EventJson {
  id: string;
  type: BookingEventType;
  at: string;
  actor_id: string | null;
  actor_name: string | null;
  driver_id: string;
  reason: AnyCancelReason | null;
  details: string | null;
}

/**
 * The booking's events, oldest first, as one JSON array inside the booking's own query: one statement, so the
 * timeline and the status come from one snapshot, in one round trip. Times are formatted as toISOString() does.
 */
const eventsJson = sql<EventJson[]>`coalesce((
  select json_agg(json_build_object(
    'id', ${bookingEvents.id}::text,
    'type', ${bookingEvents.type},
    'at', to_char(${bookingEvents.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'actor_id', ${bookingEvents.actorId},
    'actor_name', ${profiles.fullName},
    'driver_id', ${bookingEvents.driverId},
    'reason', ${bookingEvents.reason},
    'details', ${bookingEvents.details}
  ) order by ${bookingEvents.createdAt}, ${bookingEvents.id})
  from ${bookingEvents} left join ${profiles} on ${profiles.userId} = ${bookingEvents.actorId}
  where ${bookingEvents.bookingId} = ${bookings.id}
), '[]'::json)`;

/** The booking's payment as the booking's query reads it (paymentJson): bigints as numbers, times as JSON text. */
interface PaymentJson {
  state: PaymentState;
  compensation_cents: number;
  fee_cents: number;
  card_last4: string | null;
  credit_cents: number;
  refunded_cents: number;
  held_at: string;
  settled_at: string | null;
  provider: string;
  chargeback: BookingPayment['chargeback'];
}

/**
 * The booking's payment (at most one in these states: a unique index), as one JSON value inside the booking's own
 * query: the same snapshot and round trip as the rest of the page.
 */
const paymentJson = sql<PaymentJson | null>`(
  select json_build_object(
    'state', ${payments.state},
    'compensation_cents', ${payments.compensationCents},
    'fee_cents', ${payments.feeCents},
    'card_last4', ${payments.cardLast4},
    'credit_cents', ${payments.creditCents},
    'refunded_cents', ${payments.refundedCents},
    'held_at', ${payments.heldAt},
    'settled_at', ${payments.settledAt},
    'provider', ${payments.provider},
    'chargeback', ${chargebackShown()}
  )
  from ${payments}
  where ${payments.bookingId} = ${bookings.id} and ${inArray(payments.state, [...PAYMENT_STATES])}
)`;

/** The booking's payment as `role` sees it: the driver sees what they receive, the requester what they paid. */
function paymentView(p: PaymentJson, role: BookingRole, pickedUp: boolean, onHold: boolean): BookingPayment {
  const compensation = Number(p.compensation_cents);
  const fee = Number(p.fee_cents);
  const mine = role === 'requester';
  return {
    state: p.state,
    compensation_cents: compensation,
    fee_cents: mine ? fee : null,
    total_cents: mine ? compensation + fee : null,
    card_last4: mine ? p.card_last4 : null,
    credit_cents: mine ? Number(p.credit_cents) : null,
    refunded_cents: Number(p.refunded_cents),
    held_at: new Date(p.held_at).toISOString(),
    settled_at: p.settled_at === null ? null : new Date(p.settled_at).toISOString(),
    test_mode: p.provider === 'test',
    on_hold: onHold && p.state === 'held',
    chargeback: p.chargeback,
    refund_if_cancelled_cents:
      p.state === 'held' && !onHold ? cancellationSplit(compensation, fee, { by: role, pickedUp }).refundCents : null,
  };
}

/** The booking page (`GET /bookings/:id`, and the answer of every action) and the handoff photo. */
export function createBookingReader(db: Db, checkout: PaymentCheckout = TEST_CHECKOUT) {
  /** The booking page's one query, prepared once (planned per connection). */
  const pageStatement = db
    .select({
      id: bookings.id,
      status: bookings.status,
      createdAt: bookings.createdAt,
      driverId: bookings.driverId,
      requesterId: bookings.requesterId,
      deliveryCode: bookings.deliveryCode,
      pickedUpAt: bookings.pickedUpAt,
      onHoldDisputeId: bookings.onHoldDisputeId,
      onHoldChargebackId: bookings.onHoldChargebackId,
      // 'Report a problem' stays open this long after completion (the database's clock, as the report checks it).
      inReportWindow: sql<boolean>`coalesce(${bookings.endedAt} > clock_timestamp() - make_interval(hours => ${DISPUTE_WINDOW_HOURS}), false)`,
      // null: no dispute; false: only resolved ones; true: one is open (at most one is).
      openDispute: sql<
        boolean | null
      >`(select bool_or(${disputes.state} = 'open') from ${disputes} where ${disputes.bookingId} = ${bookings.id})`,
      driverName: driverProfile.fullName,
      requesterName: requesterProfile.fullName,
      driverVerified: driverProfile.verified,
      requesterVerified: requesterProfile.verified,
      driverAmbassador: ambassadorOf(driverProfile.plan),
      requesterAmbassador: ambassadorOf(requesterProfile.plan),
      requestId: deliveryRequests.id,
      title: deliveryRequests.title,
      description: deliveryRequests.description,
      pickupLocation: deliveryRequests.pickupLocation,
      deliveryLocation: deliveryRequests.deliveryLocation,
      neededByDate: deliveryRequests.neededByDate,
      compensationCents: deliveryRequests.compensationCents,
      requestStatus: deliveryRequests.status,
      hasPhoto: sql<boolean>`exists (select 1 from ${bookingPhotos} where ${bookingPhotos.bookingId} = ${bookings.id})`,
      events: eventsJson,
      payment: paymentJson,
      // What the requester's own parts of the page need (their fee waiver, guarantee cap and credit).
      requesterPlan: requesterProfile.plan,
      requesterCreditCents: creditBalanceSql(bookings.requesterId),
    })
    .from(bookings)
    .innerJoin(deliveryRequests, eq(deliveryRequests.id, bookings.requestId))
    .innerJoin(driverProfile, eq(driverProfile.userId, bookings.driverId))
    .innerJoin(requesterProfile, eq(requesterProfile.userId, bookings.requesterId))
    .where(and(eq(bookings.id, sql.placeholder('bookingId')), involves(sql.placeholder('viewerId'))))
    .prepare('booking_page');

  /** The booking as `viewerId` sees it: 404 unless they are its driver or requester. */
  async function detail(viewerId: string, bookingId: string): Promise<BookingDetail> {
    const [row] = await pageStatement.execute({ bookingId, viewerId });
    if (!row) throw notFound(BOOKING_NOT_FOUND);
    const myRole: BookingRole = row.driverId === viewerId ? 'driver' : 'requester';
    const status = row.status as BookingStatus;
    const requestStatus = row.requestStatus as RequestStatus;
    const events: BookingEvent[] = row.events.map((e) => ({
      id: e.id,
      type: e.type,
      at: e.at,
      actor:
        e.actor_id && e.actor_name !== null
          ? { id: e.actor_id, full_name: e.actor_name, role: e.actor_id === e.driver_id ? 'driver' : 'requester' }
          : null,
      reason: e.reason,
      details: e.details,
    }));
    const cancelled = status === 'cancelled' ? events.findLast((e) => e.type === 'cancelled') : undefined;
    const onHold = holdOf(row) !== null;
    const payment =
      row.compensationCents && row.payment ? paymentView(row.payment, myRole, row.pickedUpAt !== null, onHold) : null;
    const requesterPlan = planFrom(row.requesterPlan);
    // Disputes exist only on paid bookings.
    const dispute = payment && row.openDispute !== null ? await latestDispute(db, row.id, viewerId) : null;
    const reportState = {
      status,
      pickedUp: row.pickedUpAt !== null,
      inWindow: row.inReportWindow,
      paymentState: payment?.state ?? null,
      // A card dispute the bank is reviewing leaves no room for a second one here.
      openDispute: row.openDispute === true || row.onHoldChargebackId !== null,
    };
    return {
      id: row.id,
      status,
      created_at: row.createdAt.toISOString(),
      my_role: myRole,
      request: {
        id: row.requestId,
        title: row.title,
        description: row.description,
        pickup_location: row.pickupLocation,
        delivery_location: row.deliveryLocation,
        needed_by_date: row.neededByDate,
        compensation: row.compensationCents === null ? null : centsToDecimal(row.compensationCents),
        status: requestStatus,
      },
      driver: {
        id: row.driverId,
        full_name: row.driverName,
        verified: row.driverVerified,
        ambassador: row.driverAmbassador,
      },
      requester: {
        id: row.requesterId,
        full_name: row.requesterName,
        verified: row.requesterVerified,
        ambassador: row.requesterAmbassador,
      },
      events,
      actions: actionsFor(myRole, { status, requestStatus, pickedUpAt: row.pickedUpAt, onHold }),
      picked_up_at: row.pickedUpAt?.toISOString() ?? null,
      // The handoff code is the requester's to give: the driver's browser never receives it.
      delivery_code: myRole === 'requester' && status === 'confirmed' ? row.deliveryCode : null,
      has_photo: row.hasPhoto,
      payment_quote:
        myRole === 'requester' && status === 'pending' && row.compensationCents
          ? quoteFor(row.compensationCents, checkout, Number(row.requesterCreditCents), feeWaiverFor(requesterPlan))
          : null,
      payment,
      dispute,
      can_report_problem: mayReport(reportState, myRole),
      guarantee_cap_cents:
        myRole === 'requester' && mayReport(reportState, myRole) ? guaranteeCapFor(requesterPlan) : undefined,
      cancellation:
        cancelled?.reason && (cancelled.actor || cancelled.reason === 'resolved_by_ruralroute')
          ? { by: cancelled.actor, reason: cancelled.reason, details: cancelled.details }
          : null,
    };
  }

  /** The handoff photo's WebP bytes, for the booking's two people only; null when there is none to show them. */
  async function photo(viewerId: string, bookingId: string): Promise<Buffer | null> {
    const [row] = await db
      .select({ image: bookingPhotos.image })
      .from(bookingPhotos)
      .innerJoin(bookings, eq(bookings.id, bookingPhotos.bookingId))
      .where(and(eq(bookingPhotos.bookingId, bookingId), involves(viewerId)));
    return row?.image ?? null;
  }

  return { detail, photo };
}

export type BookingReader = ReturnType<typeof createBookingReader>;
