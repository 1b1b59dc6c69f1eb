import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { bookings, deliveryRequests } from '../db/schema';
import { CHOICE_COLUMNS } from '../payments/flow';

/** A booking's status and its request's, as the payment tests check that nothing moved. */
export async function bookingStateOf(db: Db, bookingId: string) {
  const [row] = await db
    .select({ booking: bookings.status, request: deliveryRequests.status })
    .from(bookings)
    .innerJoin(deliveryRequests, eq(deliveryRequests.id, bookings.requestId))
    .where(eq(bookings.id, bookingId));
  return row;
}

/** A booking's ids, people and request's compensation and title, as the payment flow takes them (the crash tests call chargeForChoice directly). */
export async function bookingParties(db: Db, bookingId: string) {
  const [row] = await db
    .select(CHOICE_COLUMNS)
    .from(bookings)
    .innerJoin(deliveryRequests, eq(deliveryRequests.id, bookings.requestId))
    .where(eq(bookings.id, bookingId));
  return row!;
}
