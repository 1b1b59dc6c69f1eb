import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { BookingStatus } from '../../shared/statuses';
import type { Db } from '../db/client';
import { bookingEvents, bookings, deliveryRequests } from '../db/schema';
import type { Outbox } from '../events';

/** A held booking's two people and its request. */
export interface HeldBooking {
  bookingId: string;
  requestId: string;
  driverId: string;
  requesterId: string;
}

/**
 * RuralRoute ends a booking its money was held for (issue 36): completed (timeline event 'resolved') when the driver
 * is paid, or cancelled 'Resolved by RuralRoute' with the request open again. Locks as the lifecycle does: the request
 * first, then the booking, guarded by `heldBy` (the hold that is being decided still holds it). Both hold columns are
 * cleared. Returns false, writing nothing, when the booking is no longer held so: the caller refuses.
 */
export async function endHeldBooking(
  tx: Db,
  b: HeldBooking,
  completes: boolean,
  heldBy: SQL | undefined,
  out: Outbox,
): Promise<boolean> {
  const to: BookingStatus = completes ? 'completed' : 'cancelled';
  const movedRequest = await tx
    .update(deliveryRequests)
    .set({ status: completes ? 'completed' : 'open' })
    .where(and(eq(deliveryRequests.id, b.requestId), eq(deliveryRequests.status, 'matched')))
    .returning({ id: deliveryRequests.id });
  if (!movedRequest.length) return false;
  const moved = await tx
    .update(bookings)
    .set({
      status: to,
      deliveryCode: null,
      onHoldDisputeId: null,
      onHoldChargebackId: null,
      endedAt: sql`clock_timestamp()`,
    })
    .where(and(eq(bookings.id, b.bookingId), eq(bookings.status, 'confirmed'), heldBy))
    .returning({ id: bookings.id });
  if (!moved.length) return false;
  await tx.insert(bookingEvents).values({
    bookingId: b.bookingId,
    driverId: b.driverId,
    requesterId: b.requesterId,
    actorId: null,
    type: completes ? 'resolved' : 'cancelled',
    fromStatus: 'confirmed',
    toStatus: to,
    reason: completes ? null : 'resolved_by_ruralroute',
  });
  out.add([b.driverId, b.requesterId], 'booking.changed', {
    booking_id: b.bookingId,
    request_id: b.requestId,
    status: to,
    event_type: completes ? 'resolved' : 'cancelled',
  });
  return true;
}
