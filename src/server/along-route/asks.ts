import { and, eq } from 'drizzle-orm';
import { earliestToday } from '../../shared/dates';
import { MARKETPLACE_ERRORS } from '../../shared/marketplace';
import { MESSAGING_ERRORS } from '../../shared/messages';
import { OWN_RIDE_MESSAGE, type RideAsk } from '../../shared/places';
import { DomainError, notFound } from '../core/domain-error';
import type { Db } from '../db/client';
import { deliveryRequests, rideAsks, rides, users } from '../db/schema';
import { Outbox } from '../events';
import { isBlockedBetween } from '../blocks';
import { notify } from '../notifications';
import { RIDE_NOT_FOUND } from './service';

const toAsk = (row: { id: string; rideId: string; requestId: string; createdAt: Date }): RideAsk => ({
  id: row.id,
  ride_id: row.rideId,
  request_id: row.requestId,
  created_at: row.createdAt.toISOString(),
});

export function createAskService(db: Db, clock: () => Date) {
  /**
   * 'Ask to carry something': the requester asks a ride's driver to carry one of their open requests. The ride must
   * be one Browse Rides shows (active, departing today or later, its driver not suspended); the request is read
   * with a share lock, as an accept reads it, so a delete or choose committed meanwhile is seen. Asking twice
   * answers the first ask (created: false) and notifies nobody again; a new ask notifies the driver ('ride_ask')
   * in the same transaction.
   */
  async function ask(
    requesterId: string,
    rideId: string,
    requestId: string,
  ): Promise<{ created: boolean; ask: RideAsk }> {
    return db.transaction(async (tx) => {
      const [ride] = await tx
        .select({ userId: rides.userId, departureDate: rides.departureDate, suspendedAt: users.suspendedAt })
        .from(rides)
        .innerJoin(users, eq(users.id, rides.userId))
        .where(and(eq(rides.id, rideId), eq(rides.status, 'active')))
        // The driver's users row: a block or a suspension locks it for update, so either is seen here.
        .for('share', { of: [rides, users] });
      if (!ride || ride.suspendedAt || ride.departureDate < earliestToday(clock())) throw notFound(RIDE_NOT_FOUND);
      if (ride.userId === requesterId) throw new DomainError('own_ride', OWN_RIDE_MESSAGE);
      const [request] = await tx
        .select({ status: deliveryRequests.status })
        .from(deliveryRequests)
        .where(and(eq(deliveryRequests.id, requestId), eq(deliveryRequests.userId, requesterId)))
        .for('share');
      if (!request || request.status !== 'open')
        throw new DomainError('request_unavailable', MARKETPLACE_ERRORS.request_unavailable.message);
      if (await isBlockedBetween(tx, requesterId, ride.userId))
        throw new DomainError('blocked', MESSAGING_ERRORS.blocked.message);

      const [created] = await tx
        .insert(rideAsks)
        .values({ rideId, requestId })
        .onConflictDoNothing({ target: [rideAsks.rideId, rideAsks.requestId] })
        .returning();
      if (!created) {
        const [existing] = await tx
          .select()
          .from(rideAsks)
          .where(and(eq(rideAsks.rideId, rideId), eq(rideAsks.requestId, requestId)));
        if (!existing) throw new Error('ask vanished');
        return { created: false, ask: toAsk(existing) };
      }
      const out = new Outbox();
      await notify(tx, out, [
        { userId: ride.userId, type: 'ride_ask', actorId: requesterId, requestId, data: { ride_id: rideId } },
      ]);
      await out.flush(tx);
      return { created: true, ask: toAsk(created) };
    });
  }

  return { ask };
}

export type AskService = ReturnType<typeof createAskService>;
