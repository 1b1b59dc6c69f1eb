import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { BookingDetail } from '../../shared/lifecycle';
import type { Notification } from '../../shared/notifications';
import { bookingDetailPath, requestDetailPath } from '../../shared/routes';
import { notifications } from '../db/schema';
import { setupTwoInstances } from '../test/harness';
import { lifecycleHelpers, TEST_CARD } from '../test/lifecycle';
import { dataOf, servedInstances, type SseEvent } from '../test/sse';
import { toNotification } from './row-to-notification';

const realPostgres = Boolean(process.env.DATABASE_URL);

/**
 * Two app instances on one real PostgreSQL: a notification written through one reaches its recipient's stream on
 * the other (`notification.created`, through the same outbox as every live event), and the lifecycle's moves
 * notify the same way whichever instance takes them.
 */
describe.skipIf(!realPostgres)('notifications across two instances on one PostgreSQL', () => {
  const { ctx, a, b, signUpAndIn } = setupTwoInstances({ AUTH_PER_IP_MAX: '100000' });
  const life = lifecycleHelpers(a, signUpAndIn);
  const { connect } = servedInstances(ctx);

  async function connectReady(instance: 0 | 1, token: string) {
    const client = await connect(instance, token);
    await client.take(1); // ready
    return client;
  }
  const created = (e: SseEvent) => dataOf<{ notification: Notification }>(e).notification;
  const inbox = async (userId: string) =>
    (await ctx.databases[1].db.select().from(notifications).where(eq(notifications.userId, userId))).map(
      toNotification,
    );

  it("an offer through A reaches the requester's stream on B as notification.created", async () => {
    const ana = await signUpAndIn('Ana Requester');
    const bob = await signUpAndIn('Bob Driver');
    const request = await life.postRequest(ana.token, 'Feed sacks');
    const onB = await connectReady(1, ana.token);

    await life.offer(bob.token, request.id);
    const got = await onB.takeUntil((e) => e.event === 'notification.created');
    const notice = created(got.at(-1)!);
    expect(notice).toMatchObject({
      type: 'offer_received',
      text: 'Bob Driver offered to carry “Feed sacks”.',
      link: requestDetailPath(request.id),
      read_at: null,
    });
    // The one the stream delivered is the stored one (B reads what A wrote).
    expect(await inbox(ana.user.id)).toEqual([notice]);
  });

  it('moves taken on either instance notify the other person, live on the other instance', async () => {
    const ana = await signUpAndIn('Ana Requester');
    const bob = await signUpAndIn('Bob Driver');
    const request = await life.postRequest(ana.token, 'Hay bales');
    const booking = await life.offer(bob.token, request.id);
    const bobOnA = await connectReady(0, bob.token);
    const anaOnA = await connectReady(0, ana.token);

    // Chosen through B: Bob, listening on A, hears it.
    const chosen = await b<BookingDetail>('POST', `/bookings/${booking.id}/choose`, {
      cookie: ana.token,
      body: { card: TEST_CARD },
    });
    expect(chosen.status).toBe(200);
    // Two notices of one move: chosen, and the payment held for him.
    const isCreated = (e: { event: string }) => e.event === 'notification.created';
    const toBob = [(await bobOnA.takeUntil(isCreated)).at(-1)!, (await bobOnA.takeUntil(isCreated)).at(-1)!].map(
      created,
    );
    expect(toBob.find((n) => n.type === 'offer_chosen')).toMatchObject({
      text: 'Ana Requester chose you to carry “Hay bales”.',
      link: bookingDetailPath(booking.id),
    });
    expect(toBob.map((n) => n.type).sort()).toEqual(['offer_chosen', 'payment_held']);

    // Picked up through B: Ana, listening on A, hears it; Bob gets no notice of his own move.
    expect((await b('POST', `/bookings/${booking.id}/pickup`, { cookie: bob.token, body: {} })).status).toBe(200);
    const toAna = await anaOnA.takeUntil((e) => e.event === 'notification.created');
    expect(created(toAna.at(-1)!)).toMatchObject({ type: 'picked_up', text: 'Bob Driver picked up “Hay bales”.' });
    expect((await bobOnA.quiet(200)).filter((e) => e.event === 'notification.created')).toEqual([]);
    expect((await inbox(bob.user.id)).map((n) => n.type).sort()).toEqual(['offer_chosen', 'payment_held']);
  });
});
