import { and, eq, sql } from 'drizzle-orm';
import type { BookingDetail, BookingEvent, BookingRole } from '../../shared/lifecycle';
import { cancellationSplit, centsToDecimal, quoteFor } from '../../shared/money';
import { TEST_CHECKOUT, type BookingPayment, type PaymentCheckout } from '../../shared/payments';
import type { BookingStatus, RequestStatus } from '../../shared/statuses';
import { notFound } from '../core/domain-error';
import type { Db } from '../db/client';
import { preparedStatement } from '../db/prepared';
import { rowsOf } from '../db/result-rows';
import { bookingPhotos, bookings } from '../db/schema';
import { latestDispute, mayReport } from '../disputes';
import { ambassadorFor, feeWaiverFor, guaranteeCapFor, planFrom } from '../plans';
import { actionsFor } from './lifecycle';
import { PAGE_ARGUMENTS, type PageJson, type PaymentJson } from './page-query';
import { BOOKING_NOT_FOUND, holdOf, involves } from './transitions';

/** `GET /bookings/:id`'s one statement (page-query.ts), prepared once (planned per connection). */
const pageStatement = preparedStatement(
  'booking_page',
  () =>
    sql`select rr_booking_page(${sql.placeholder('bookingId')}::uuid, ${sql.placeholder('viewerId')}::uuid, ${PAGE_ARGUMENTS}) as page`,
);

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
  /** The booking as `viewerId` sees it: 404 unless they are its driver or requester. */
  async function detail(viewerId: string, bookingId: string): Promise<BookingDetail> {
    const [row] = rowsOf<{ page: PageJson | null }>(await pageStatement(db, { bookingId, viewerId }));
    return view(viewerId, row?.page ?? null);
  }

  /** The page rr_booking_page answered (a move's, or detail's), as `viewerId` sees it: 404 when there is none. */
  async function view(viewerId: string, row: PageJson | null): Promise<BookingDetail> {
    if (!row) throw notFound(BOOKING_NOT_FOUND);
    const myRole: BookingRole = row.driver_id === viewerId ? 'driver' : 'requester';
    const status = row.status as BookingStatus;
    const requestStatus = row.request_status as RequestStatus;
    const pickedUpAt = row.picked_up_at === null ? null : new Date(row.picked_up_at);
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
    const onHold =
      holdOf({ onHoldDisputeId: row.on_hold_dispute_id, onHoldChargebackId: row.on_hold_chargeback_id }) !== null;
    const payment =
      row.compensation_cents && row.payment ? paymentView(row.payment, myRole, pickedUpAt !== null, onHold) : null;
    const requesterPlan = planFrom(row.requester_plan);
    // Disputes exist only on paid bookings.
    const dispute = payment && row.open_dispute !== null ? await latestDispute(db, row.id, viewerId) : null;
    const reportState = {
      status,
      pickedUp: pickedUpAt !== null,
      inWindow: row.in_report_window,
      paymentState: payment?.state ?? null,
      // A card dispute the bank is reviewing leaves no room for a second one here.
      openDispute: row.open_dispute === true || row.on_hold_chargeback_id !== null,
    };
    return {
      id: row.id,
      status,
      created_at: new Date(row.created_at).toISOString(),
      my_role: myRole,
      request: {
        id: row.request_id,
        title: row.title,
        description: row.description,
        pickup_location: row.pickup_location,
        delivery_location: row.delivery_location,
        needed_by_date: row.needed_by_date,
        compensation: row.compensation_cents === null ? null : centsToDecimal(row.compensation_cents),
        status: requestStatus,
      },
      driver: {
        id: row.driver_id,
        full_name: row.driver_name,
        verified: row.driver_verified,
        ambassador: ambassadorFor(row.driver_plan),
      },
      requester: {
        id: row.requester_id,
        full_name: row.requester_name,
        verified: row.requester_verified,
        ambassador: ambassadorFor(row.requester_plan),
      },
      events,
      actions: actionsFor(myRole, { status, requestStatus, pickedUpAt, onHold }),
      picked_up_at: pickedUpAt?.toISOString() ?? null,
      // The handoff code is the requester's to give: the driver's browser never receives it.
      delivery_code: myRole === 'requester' && status === 'confirmed' ? row.delivery_code : null,
      has_photo: row.has_photo,
      payment_quote:
        myRole === 'requester' && status === 'pending' && row.compensation_cents
          ? quoteFor(row.compensation_cents, checkout, Number(row.requester_credit_cents), feeWaiverFor(requesterPlan))
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

  return { detail, view, photo };
}

export type BookingReader = ReturnType<typeof createBookingReader>;
