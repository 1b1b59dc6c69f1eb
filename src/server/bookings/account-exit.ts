import { and, eq, inArray, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { bookingEvents, bookings, deliveryRequests } from '../db/schema';
import type { Outbox } from '../events';
import type { NewNotification } from '../notifications';
import { enqueuePayoutRunIfActive, refundOnCancel } from '../payments';
import { MOVES, type Move } from './lifecycle';
import { announce, declineOffersWhere, eventRow, notOnHold } from './transitions';

/** The table's own moves, so an account's exit ends its bookings exactly as the person could have. */
function move(action: Move['action'], role: Move['role']): Move {
  const found = MOVES.find((m) => m.action === action && m.role === role);
  if (!found) throw new Error(`no move ${action} for the ${role}`);
  return found;
}
const WITHDRAW = move('withdraw', 'driver');
const CANCEL = move('cancel', 'driver');

/**
 * Ends every live booking of a person whose account is being deleted, inside the caller's transaction,
 * as the person would have through the lifecycle, with the same events, live `booking.changed` and notices:
 * - their pending offers are withdrawn (event 'withdrawn'; the requester hears 'booking_cancelled', 'withdrawn');
 * - their confirmed bookings, in either role, are cancelled with the reason 'account_deleted' (the other person
 *   hears 'booking_cancelled' with that reason; a matched request of someone else is open again); a paid one is
 *   refunded under the cancellation policy, as if they had cancelled it;
 * - pending offers on their own requests are declined (event and cause 'request_withdrawn').
 * Completed, declined and cancelled bookings stay as they are: they are the other person's history too.
 *
 * Locks come in the lifecycle's order: the requests concerned first (by id, FOR UPDATE, as choose and cancel lock
 * them), then the bookings. So a choose, cancel, complete or receive racing this either finishes first (and its
 * result is ended here) or waits and then finds the booking ended; a new offer on one of their requests waits and
 * then finds the request gone. Returns the notices for the caller's one `notify`.
 */
export async function endBookingsOfLeavingUser(tx: Db, userId: string, out: Outbox): Promise<NewNotification[]> {
  const mine = or(eq(bookings.driverId, userId), eq(bookings.requesterId, userId));
  await tx.execute(sql`
    select ${deliveryRequests.id} from ${deliveryRequests}
    where ${deliveryRequests.userId} = ${userId}
      or ${deliveryRequests.id} in (
        select ${bookings.requestId} from ${bookings}
        where ${mine} and ${bookings.status} = 'confirmed')
    order by ${deliveryRequests.id}
    for update`);

  const notices: NewNotification[] = [];
  const parties = {
    id: bookings.id,
    requestId: bookings.requestId,
    driverId: bookings.driverId,
    requesterId: bookings.requesterId,
  };

  const withdrawn = await tx
    .update(bookings)
    .set({ status: WITHDRAW.to, endedAt: sql`clock_timestamp()` })
    .where(and(eq(bookings.driverId, userId), sql`${bookings.status} = ${sql.raw(`'${WITHDRAW.from}'`)}`))
    .returning(parties);
  if (withdrawn.length)
    await tx
      .insert(bookingEvents)
      .values(withdrawn.map((b) => eventRow(b, userId, WITHDRAW.event, WITHDRAW.from, WITHDRAW.to)));
  for (const b of withdrawn) {
    announce(out, b, WITHDRAW.to, WITHDRAW.event);
    notices.push({
      userId: b.requesterId,
      type: 'booking_cancelled',
      actorId: userId,
      bookingId: b.id,
      data: { reason: 'withdrawn' },
    });
  }

  const cancelled = await tx
    .update(bookings)
    .set({ status: CANCEL.to, deliveryCode: null, endedAt: sql`clock_timestamp()` })
    // A booking an open dispute (or a card dispute) holds stays as it is: its money waits for the decision (issue 36).
    .where(and(mine, sql`${bookings.status} = ${sql.raw(`'${CANCEL.from}'`)}`, notOnHold()))
    .returning({ ...parties, pickedUpAt: bookings.pickedUpAt });
  // Paid bookings are refunded as if the leaving person had cancelled them (docs/payments.md).
  for (const b of cancelled) {
    const refunded = await refundOnCancel(tx, b.id, {
      by: b.driverId === userId ? 'driver' : 'requester',
      pickedUp: b.pickedUpAt !== null,
    });
    // The other person hears of the money; the account leaving has no inbox left.
    if (refunded) notices.push(...refunded.notices.filter((n) => n.userId !== userId));
  }
  if (cancelled.length) {
    await tx.insert(bookingEvents).values(
      cancelled.map((b) => ({
        ...eventRow(b, userId, CANCEL.event, CANCEL.from, CANCEL.to),
        reason: 'account_deleted',
      })),
    );
    const { from, to } = CANCEL.request!;
    await tx
      .update(deliveryRequests)
      .set({ status: to })
      .where(
        and(
          inArray(
            deliveryRequests.id,
            cancelled.map((b) => b.requestId),
          ),
          eq(deliveryRequests.status, from),
        ),
      );
  }
  for (const b of cancelled) {
    announce(out, b, CANCEL.to, CANCEL.event);
    notices.push({
      userId: b.driverId === userId ? b.requesterId : b.driverId,
      type: 'booking_cancelled',
      actorId: userId,
      bookingId: b.id,
      data: { reason: 'account_deleted' },
    });
  }

  notices.push(...(await declineOffersWhere(tx, eq(bookings.requesterId, userId), 'request_withdrawn', userId, out)));
  // A leaving driver's Available earnings are paid out to their bank when payouts are set up (docs/payments.md).
  await enqueuePayoutRunIfActive(tx, userId);
  return notices;
}
