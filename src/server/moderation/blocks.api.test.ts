import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { BookingDetail } from '../../shared/lifecycle';
import type { DeliveryRequest, Ride } from '../../shared/marketplace';
import { MESSAGING_ERRORS } from '../../shared/messages';
import type { BlockedPerson } from '../../shared/moderation';
import { blocks, bookingEvents, bookings, userEvents } from '../db/schema';
import { setupTestApp } from '../test/harness';
import { lifecycleHelpers } from '../test/lifecycle';
import { collectPages, rideBody, tick, type PageBody } from '../test/marketplace';
import { isBlockedBetween } from '../blocks';

const { ctx, call, signUpAndIn } = setupTestApp({ AUTH_PER_IP_MAX: '100000' });
const { postRequest, offer, act } = lifecycleHelpers(call, signUpAndIn);

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const BLOCKED = { code: 'blocked', message: MESSAGING_ERRORS.blocked.message };

const block = (token: string, userId: unknown) =>
  call<BlockedPerson>('POST', '/blocks', { cookie: token, body: { user_id: userId } });
const unblock = (token: string, userId: string) => call('DELETE', `/blocks/${userId}`, { cookie: token });
const accept = (token: string, requestId: string) =>
  call('POST', '/bookings', { cookie: token, body: { request_id: requestId } });

async function browseRides(token: string): Promise<Ride[]> {
  const { items } = await collectPages<Ride>((cursor) =>
    call<PageBody<Ride>>('GET', `/rides/browse?limit=50${cursor ? `&cursor=${cursor}` : ''}`, { cookie: token }),
  );
  return items;
}
async function browseRequests(token: string): Promise<DeliveryRequest[]> {
  const { items } = await collectPages<DeliveryRequest>((cursor) =>
    call<PageBody<DeliveryRequest>>('GET', `/requests/browse?limit=50${cursor ? `&cursor=${cursor}` : ''}`, {
      cookie: token,
    }),
  );
  return items;
}

describe('POST /api/blocks, GET /api/blocks, DELETE /api/blocks/:userId', () => {
  it('blocks (201), again is 200 with the same row, lists newest first, and unblocks (204, then 404)', async () => {
    const me = await signUpAndIn('Mia Block');
    const first = await signUpAndIn('First Person');
    const second = await signUpAndIn('Second Person');

    const made = await block(me.token, first.user.id);
    expect(made.status).toBe(201);
    expect(made.body).toEqual({
      user: { id: first.user.id, full_name: 'First Person' },
      created_at: expect.any(String),
    });
    const again = await block(me.token, first.user.id);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(made.body);
    await tick();
    expect((await block(me.token, second.user.id)).status).toBe(201);

    const list = await call<PageBody<BlockedPerson>>('GET', '/blocks', { cookie: me.token });
    expect(list.status).toBe(200);
    expect(list.body.items.map((b) => b.user.full_name)).toEqual(['Second Person', 'First Person']);
    expect(list.body.next_cursor).toBeNull();
    // Only my own blocks: the person I blocked sees an empty list.
    expect((await call<PageBody<BlockedPerson>>('GET', '/blocks', { cookie: first.token })).body.items).toEqual([]);

    expect((await unblock(me.token, first.user.id)).status).toBe(204);
    const gone = await unblock(me.token, first.user.id);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ code: 'not_found', message: "You haven't blocked this person." });
    // The blocked person cannot undo someone else's block.
    expect((await unblock(second.token, me.user.id)).status).toBe(404);
    expect(await isBlockedBetween(ctx.database.db, me.user.id, second.user.id)).toBe(true);
    expect(await isBlockedBetween(ctx.database.db, me.user.id, first.user.id)).toBe(false);
  });

  it('pages the list with a keyset cursor, newest first, with no gaps or repeats', async () => {
    const me = await signUpAndIn('Many Blocks');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const other = await signUpAndIn(`Person ${i}`);
      await block(me.token, other.user.id);
      ids.unshift(other.user.id);
      await tick();
    }
    const { items, pages } = await collectPages<BlockedPerson>((cursor) =>
      call<PageBody<BlockedPerson>>('GET', `/blocks?limit=2${cursor ? `&cursor=${cursor}` : ''}`, { cookie: me.token }),
    );
    expect(pages).toBe(3);
    expect(items.map((b) => b.user.id)).toEqual(ids);
  });

  it('refuses blocking yourself (400), an unknown person (404), a malformed id and bad bodies (400)', async () => {
    const me = await signUpAndIn();
    expect(await block(me.token, me.user.id)).toMatchObject({
      status: 400,
      body: { code: 'validation_error', message: "You can't block yourself." },
    });
    expect(await block(me.token, UNKNOWN)).toMatchObject({
      status: 404,
      body: { code: 'not_found', message: 'User not found.' },
    });
    for (const bad of ['nope', 42, null, undefined])
      expect(await block(me.token, bad)).toMatchObject({
        status: 400,
        body: { code: 'validation_error', message: 'Not found' },
      });
    expect((await call('POST', '/blocks', { cookie: me.token, raw: '{' })).body).toMatchObject({
      code: 'malformed_json',
    });
    expect((await call('POST', '/blocks', { cookie: me.token, body: [1] })).status).toBe(400);
    expect(await unblock(me.token, 'not-a-uuid')).toMatchObject({ status: 404 });
    expect((await call('GET', '/blocks?limit=0', { cookie: me.token })).status).toBe(400);
    const [row] = await ctx.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(blocks)
      .where(eq(blocks.blockerId, me.user.id));
    expect(row?.n).toBe(0);
  });

  it('needs a session (401) for every route', async () => {
    expect((await call('GET', '/blocks')).status).toBe(401);
    expect((await call('POST', '/blocks', { body: { user_id: UNKNOWN } })).status).toBe(401);
    expect((await call('DELETE', `/blocks/${UNKNOWN}`)).status).toBe(401);
  });
});

describe('what a block does', () => {
  it('refuses offers both ways with 403 blocked, and allows them again after unblock', async () => {
    const a = await signUpAndIn('Alex');
    const b = await signUpAndIn('Bea');
    const aRequest = await postRequest(a.token, 'From Alex');
    const bRequest = await postRequest(b.token, 'From Bea');
    expect((await block(a.token, b.user.id)).status).toBe(201);

    // The blocker's request, offered on by the blocked person, and the other way round.
    expect(await accept(b.token, aRequest.id)).toMatchObject({ status: 403, body: BLOCKED });
    expect(await accept(a.token, bRequest.id)).toMatchObject({ status: 403, body: BLOCKED });
    const stored = await ctx.database.db
      .select({ id: bookings.id })
      .from(bookings)
      .where(inArray(bookings.requestId, [aRequest.id, bRequest.id]));
    expect(stored).toEqual([]);

    expect((await unblock(a.token, b.user.id)).status).toBe(204);
    expect((await accept(b.token, aRequest.id)).status).toBe(201);
    expect((await accept(a.token, bRequest.id)).status).toBe(201);
  });

  it('a block by either person is enough: the other cannot offer while the block stands', async () => {
    const a = await signUpAndIn();
    const b = await signUpAndIn();
    const bRequest = await postRequest(b.token);
    // b blocked a; a unblocking nothing changes that.
    await block(b.token, a.user.id);
    expect((await unblock(a.token, b.user.id)).status).toBe(404);
    expect(await accept(a.token, bRequest.id)).toMatchObject({ status: 403, body: BLOCKED });
  });

  it('declines every pending offer between the two, both directions, with events; others and confirmed stay', async () => {
    const a = await signUpAndIn('Blocker');
    const b = await signUpAndIn('Blocked');
    const c = await signUpAndIn('Bystander');
    const aRequest = await postRequest(a.token, 'Alpha');
    const bRequest = await postRequest(b.token, 'Beta');
    const bOnA = await offer(b.token, aRequest.id);
    const aOnB = await offer(a.token, bRequest.id);
    const cOnA = await offer(c.token, aRequest.id);
    // A confirmed booking between the two: it runs its course.
    const confirmedRequest = await postRequest(a.token, 'Gamma');
    const chosen = await offer(b.token, confirmedRequest.id);
    expect((await act(a.token, chosen.id, 'choose')).status).toBe(200);

    expect((await block(a.token, b.user.id)).status).toBe(201);

    const rows = await ctx.database.db
      .select({ id: bookings.id, status: bookings.status, endedAt: bookings.endedAt })
      .from(bookings)
      .where(inArray(bookings.id, [bOnA.id, aOnB.id, cOnA.id, chosen.id]));
    const byId = Object.fromEntries(rows.map((r) => [r.id, r]));
    expect(byId[bOnA.id]).toMatchObject({ status: 'declined', endedAt: expect.any(Date) });
    expect(byId[aOnB.id]).toMatchObject({ status: 'declined', endedAt: expect.any(Date) });
    expect(byId[cOnA.id]).toMatchObject({ status: 'pending', endedAt: null });
    expect(byId[chosen.id]).toMatchObject({ status: 'confirmed', endedAt: null });

    for (const id of [bOnA.id, aOnB.id]) {
      const events = await ctx.database.db
        .select({
          type: bookingEvents.type,
          actor: bookingEvents.actorId,
          from: bookingEvents.fromStatus,
          to: bookingEvents.toStatus,
        })
        .from(bookingEvents)
        .where(eq(bookingEvents.bookingId, id))
        .orderBy(asc(bookingEvents.createdAt), asc(bookingEvents.id));
      expect(events.at(-1)).toEqual({ type: 'declined', actor: a.user.id, from: 'pending', to: 'declined' });
      // Both people hear of it live.
      for (const person of [a.user.id, b.user.id]) {
        const live = await ctx.database.db
          .select({ data: userEvents.data })
          .from(userEvents)
          .where(
            and(
              eq(userEvents.userId, person),
              eq(userEvents.type, 'booking.changed'),
              sql`${userEvents.data}->>'booking_id' = ${id}`,
              sql`${userEvents.data}->>'event_type' = 'declined'`,
            ),
          );
        expect(live).toHaveLength(1);
        expect(live[0]?.data).toMatchObject({ status: 'declined', event_type: 'declined' });
      }
    }
    // The booking pages tell the story the same way.
    const page = await call<BookingDetail>('GET', `/bookings/${bOnA.id}`, { cookie: b.token });
    expect(page.body.status).toBe('declined');
    expect(page.body.events.at(-1)).toMatchObject({ type: 'declined' });

    // The confirmed booking still works for both: the driver picks up.
    expect((await act(b.token, chosen.id, 'pickup')).status).toBe(200);
    // Blocking again declines nothing more and writes no events.
    const before = await ctx.database.db.select({ n: sql<number>`count(*)::int` }).from(bookingEvents);
    expect((await block(a.token, b.user.id)).status).toBe(200);
    const after = await ctx.database.db.select({ n: sql<number>`count(*)::int` }).from(bookingEvents);
    expect(after[0]?.n).toBe(before[0]?.n);
  });

  it('hides rides and requests from Browse both ways, and shows them again after unblock', async () => {
    const a = await signUpAndIn('Hider');
    const b = await signUpAndIn('Hidden');
    const c = await signUpAndIn('Visible');
    const post = async (token: string, tag: string) => {
      const ride = await call<Ride>('POST', '/rides', { cookie: token, body: rideBody({ notes: tag }) });
      const request = await postRequest(token, tag);
      return { ride: ride.body.id, request: request.id };
    };
    const aItems = await post(a.token, 'a');
    const bItems = await post(b.token, 'b');
    const cItems = await post(c.token, 'c');
    const seen = async (token: string) => ({
      rides: new Set((await browseRides(token)).map((r) => r.id)),
      requests: new Set((await browseRequests(token)).map((r) => r.id)),
    });
    const sees = (view: Awaited<ReturnType<typeof seen>>, items: typeof aItems) =>
      view.rides.has(items.ride) && view.requests.has(items.request);
    const hides = (view: Awaited<ReturnType<typeof seen>>, items: typeof aItems) =>
      !view.rides.has(items.ride) && !view.requests.has(items.request);

    expect(sees(await seen(a.token), bItems)).toBe(true);
    await block(a.token, b.user.id);
    const aView = await seen(a.token);
    const bView = await seen(b.token);
    expect(hides(aView, bItems)).toBe(true);
    expect(hides(bView, aItems)).toBe(true);
    // Everyone else still sees both, and the two still see their own and third parties'.
    expect(sees(aView, cItems) && sees(aView, aItems)).toBe(true);
    expect(sees(bView, cItems) && sees(bView, bItems)).toBe(true);
    const cView = await seen(c.token);
    expect(sees(cView, aItems) && sees(cView, bItems)).toBe(true);

    await unblock(a.token, b.user.id);
    expect(sees(await seen(a.token), bItems)).toBe(true);
    expect(sees(await seen(b.token), aItems)).toBe(true);
  });

  it('keeps Browse pages whole around hidden items: the keyset pages still cover the rest exactly once', async () => {
    const viewer = await signUpAndIn('Pager');
    const hidden = await signUpAndIn('Hidden Poster');
    const shown = await signUpAndIn('Shown Poster');
    const expected: string[] = [];
    for (let i = 0; i < 6; i++) {
      await postRequest(hidden.token, `hidden ${i}`);
      expected.push((await postRequest(shown.token, `shown ${i}`)).id);
      await tick();
    }
    await block(hidden.token, viewer.user.id);
    const { items } = await collectPages<DeliveryRequest>((cursor) =>
      call<PageBody<DeliveryRequest>>('GET', `/requests/browse?limit=2${cursor ? `&cursor=${cursor}` : ''}`, {
        cookie: viewer.token,
      }),
    );
    const mine = items.filter((r) => r.requester_name === 'Shown Poster' || r.requester_name === 'Hidden Poster');
    expect(mine.map((r) => r.id)).toEqual([...expected].reverse());
  });
});
