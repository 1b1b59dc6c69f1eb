import { count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bookingActionSchema, type BookingDetail, type BookingRole } from '../../shared/lifecycle';
import type { DeliveryRequest } from '../../shared/marketplace';
import { bookingEvents, bookings, deliveryRequests } from '../db/schema';
import { setupTestApp } from '../test/harness';
import { lifecycleHelpers } from '../test/lifecycle';
import type { PageBody } from '../test/marketplace';
import { MOVES } from './lifecycle';

const { ctx, call, signUpAndIn } = setupTestApp({ AUTH_PER_IP_MAX: '100000' });
const { act, booking, request, story, confirmed, complete, offer } = lifecycleHelpers(call, signUpAndIn);

const ALL_ACTIONS = bookingActionSchema.options;

const STATE_CHANGED = {
  code: 'booking_state_changed',
  message: 'This booking has changed. Reload the page to see where it stands.',
};
const NOT_FOUND = { code: 'not_found', message: 'Booking not found.' };

async function rowOf(id: string) {
  const [row] = await ctx.database.db.select().from(bookings).where(eq(bookings.id, id));
  return row!;
}
async function requestStatus(id: string) {
  const [row] = await ctx.database.db.select().from(deliveryRequests).where(eq(deliveryRequests.id, id));
  return row?.status;
}
async function eventCount(bookingId: string) {
  const [row] = await ctx.database.db
    .select({ n: count() })
    .from(bookingEvents)
    .where(eq(bookingEvents.bookingId, bookingId));
  return row?.n ?? 0;
}
const eventTypes = (b: BookingDetail) => b.events.map((e) => e.type);

describe("a move's answer", () => {
  it('is the page GET /bookings/:id answers right after it, as the one who moved sees it (one query, decision 048)', async () => {
    const s = await story(2);
    const [first, second] = s.offers;
    const driver = s.drivers[0]!.token;
    const same = async (token: string, moved: { status: number; body: BookingDetail }, id: string) => {
      expect(moved.status).toBe(200);
      expect(moved.body).toEqual((await booking(token, id)).body);
    };
    const chosen = await act(s.requester.token, first!.id, 'choose');
    await same(s.requester.token, chosen, first!.id);
    // Choose's answer shows what its own statement did: the held payment and the code (the requester's), and the
    // other offer declined in the same move.
    expect(chosen.body).toMatchObject({ status: 'confirmed', payment: { state: 'held' } });
    expect(chosen.body.delivery_code).toMatch(/^\d{6}$/);
    expect((await booking(s.drivers[1]!.token, second!.id)).body.status).toBe('declined');
    const picked = await act(driver, first!.id, 'pickup');
    await same(driver, picked, first!.id);
    expect(picked.body).toMatchObject({ my_role: 'driver', delivery_code: null });
    expect(picked.body.picked_up_at).not.toBeNull();
    const done = await complete(driver, first!.id, chosen.body.delivery_code!);
    await same(driver, done, first!.id);
    expect(done.body).toMatchObject({ status: 'completed', payment: { state: 'released' } });
    expect(eventTypes(done.body)).toEqual(['offered', 'chosen', 'picked_up', 'completed']);
  });
});

describe('choose, pickup, complete: the whole story', () => {
  it('confirms the chosen driver, declines the others, and carries the delivery through to completed', async () => {
    const s = await story(3);
    const [first, second, third] = s.offers;
    // The requester sees every pending offer, oldest first, with the drivers' names.
    const before = await request(s.requester.token, s.request.id);
    expect(before.status).toBe(200);
    expect(before.body.offers.map((o) => [o.booking_id, o.driver.full_name])).toEqual([
      [first!.id, 'Driver 1'],
      [second!.id, 'Driver 2'],
      [third!.id, 'Driver 3'],
    ]);
    expect(before.body.booking).toBeNull();

    const chosen = await act(s.requester.token, second!.id, 'choose');
    expect(chosen.status).toBe(200);
    expect(chosen.body).toMatchObject({
      id: second!.id,
      status: 'confirmed',
      my_role: 'requester',
      actions: ['cancel', 'receive'],
      request: { id: s.request.id, title: 'Feed sacks', status: 'matched', compensation: '12.50' },
      driver: { id: s.drivers[1]!.user.id, full_name: 'Driver 2' },
      requester: { id: s.requester.user.id, full_name: 'Ana Diaz' },
      picked_up_at: null,
      has_photo: false,
      cancellation: null,
    });
    expect(chosen.body.delivery_code).toMatch(/^\d{6}$/);
    expect(eventTypes(chosen.body)).toEqual(['offered', 'chosen']);
    expect(chosen.body.events[1]?.actor).toEqual({
      id: s.requester.user.id,
      full_name: 'Ana Diaz',
      role: 'requester',
    });

    // The other offers were declined by the system, and the request is matched: no offers, the chosen booking.
    for (const other of [first!, third!]) {
      expect((await rowOf(other.id)).status).toBe('declined');
      const seen = await booking(s.drivers[other === first ? 0 : 2]!.token, other.id);
      expect(seen.body).toMatchObject({ status: 'declined', actions: [], delivery_code: null });
      expect(seen.body.events.at(-1)).toMatchObject({ type: 'other_chosen', actor: null });
    }
    const after = await request(s.requester.token, s.request.id);
    expect(after.body).toMatchObject({
      status: 'matched',
      offers: [],
      booking: { id: second!.id, status: 'confirmed', driver: { full_name: 'Driver 2' } },
    });

    // The driver's page: no code, ever; pickup once; then complete with the requester's code.
    const driver = s.drivers[1]!;
    const driverView = await booking(driver.token, second!.id);
    expect(driverView.body).toMatchObject({ my_role: 'driver', delivery_code: null });
    expect(driverView.body.actions).toEqual(['cancel', 'pickup', 'complete']);
    expect(JSON.stringify(driverView.body)).not.toContain(chosen.body.delivery_code!);

    const picked = await act(driver.token, second!.id, 'pickup');
    expect(picked.status).toBe(200);
    expect(picked.body.status).toBe('confirmed');
    expect(picked.body.picked_up_at).toEqual(expect.any(String));
    expect(picked.body.actions).toEqual(['cancel', 'complete']);
    expect(eventTypes(picked.body)).toEqual(['offered', 'chosen', 'picked_up']);
    expect(await act(driver.token, second!.id, 'pickup')).toMatchObject({ status: 409, body: STATE_CHANGED });

    const done = await complete(driver.token, second!.id, chosen.body.delivery_code!);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ status: 'completed', actions: [], request: { status: 'completed' } });
    expect(eventTypes(done.body)).toEqual(['offered', 'chosen', 'picked_up', 'completed']);
    expect(await requestStatus(s.request.id)).toBe('completed');
    expect((await rowOf(second!.id)).deliveryCode).toBeNull();
    const requesterAfter = await booking(s.requester.token, second!.id);
    expect(requesterAfter.body).toMatchObject({ status: 'completed', actions: [], delivery_code: null });
    const times = done.body.events.map((e) => e.at);
    expect([...times].sort()).toEqual(times);
  });

  it('receive: the requester completes without the code; the request is completed', async () => {
    const c = await confirmed();
    const res = await act(c.requester.token, c.bookingId, 'receive', undefined);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'completed', actions: [], delivery_code: null });
    expect(eventTypes(res.body)).toEqual(['offered', 'chosen', 'received']);
    expect(await requestStatus(c.request.id)).toBe('completed');
  });
});

describe('decline, withdraw, cancel', () => {
  it('decline: the requester declines one pending offer; the request stays open', async () => {
    const s = await story(2);
    const res = await act(s.requester.token, s.offers[0]!.id, 'decline');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'declined', actions: [], cancellation: null });
    expect(res.body.events.at(-1)).toMatchObject({ type: 'declined', actor: { role: 'requester' } });
    expect(await requestStatus(s.request.id)).toBe('open');
    expect((await rowOf(s.offers[1]!.id)).status).toBe('pending');
  });

  it('withdraw: the driver withdraws a pending offer (cancelled), and may offer again', async () => {
    const s = await story(1);
    const res = await act(s.drivers[0]!.token, s.offers[0]!.id, 'withdraw');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'cancelled', actions: [], cancellation: null });
    expect(res.body.events.at(-1)).toMatchObject({ type: 'withdrawn', actor: { role: 'driver' } });
    const again = await call('POST', '/bookings', { cookie: s.drivers[0]!.token, body: { request_id: s.request.id } });
    expect(again.status).toBe(201);
  });

  it.each<BookingRole>(['driver', 'requester'])(
    'cancel by the %s: reason and details kept, the request open again, every earlier driver may offer again',
    async (role) => {
      const c = await confirmed(2);
      const token = role === 'driver' ? c.driver.token : c.requester.token;
      const res = await act(token, c.bookingId, 'cancel', { reason: 'too_late', details: '  Tractor broke down  ' });
      expect(res.status).toBe(200);
      const by = role === 'driver' ? c.driver : c.requester;
      expect(res.body).toMatchObject({
        status: 'cancelled',
        actions: [],
        delivery_code: null,
        request: { status: 'open' },
        cancellation: { by: { id: by.user.id, role }, reason: 'too_late', details: 'Tractor broke down' },
      });
      expect(res.body.events.at(-1)).toMatchObject({ type: 'cancelled', reason: 'too_late' });
      expect(await requestStatus(c.request.id)).toBe('open');
      // Both the cancelled driver and the one declined when the first was chosen may offer again.
      for (const d of c.drivers) {
        const browse = await call<PageBody<DeliveryRequest>>('GET', '/requests/browse?limit=50', { cookie: d.token });
        expect(browse.body.items.find((r) => r.id === c.request.id)?.accepted_by_me).toBe(false);
        await offer(d.token, c.request.id);
      }
      const open = await request(c.requester.token, c.request.id);
      expect(open.body.offers).toHaveLength(2);
      expect(open.body.booking).toBeNull();
    },
  );

  it('keeps already_accepted for a live offer', async () => {
    const s = await story(1);
    const again = await call('POST', '/bookings', { cookie: s.drivers[0]!.token, body: { request_id: s.request.id } });
    expect(again).toMatchObject({ status: 409, body: { code: 'already_accepted' } });
  });

  it('refuses accepting a matched or completed request with request_unavailable', async () => {
    const c = await confirmed(1);
    const late = await signUpAndIn();
    const refused = await call('POST', '/bookings', { cookie: late.token, body: { request_id: c.request.id } });
    expect(refused).toMatchObject({ status: 409, body: { code: 'request_unavailable' } });
    await act(c.requester.token, c.bookingId, 'receive');
    const still = await call('POST', '/bookings', { cookie: late.token, body: { request_id: c.request.id } });
    expect(still).toMatchObject({ status: 409, body: { code: 'request_unavailable' } });
  });
});

/**
 * Every (state, role, action) the table does not allow answers 409 booking_state_changed and changes nothing. The
 * bookings are put in each state through the API; the allowed moves are read from the table itself.
 */
describe('forbidden transitions', () => {
  it('answers 409 booking_state_changed for every move the table forbids, and changes nothing', async () => {
    const pending = await story(2);
    const confirmedOne = await confirmed(1);
    const pickedUp = await confirmed(1);
    await act(pickedUp.driver.token, pickedUp.bookingId, 'pickup');
    const completed = await confirmed(1);
    await act(completed.requester.token, completed.bookingId, 'receive');
    const declined = await story(1);
    await act(declined.requester.token, declined.offers[0]!.id, 'decline');
    const withdrawn = await story(1);
    await act(withdrawn.drivers[0]!.token, withdrawn.offers[0]!.id, 'withdraw');
    const cancelled = await confirmed(1);
    await act(cancelled.driver.token, cancelled.bookingId, 'cancel', { reason: 'other' });

    const cases = [
      { name: 'pending', id: pending.offers[0]!.id, driver: pending.drivers[0]!, requester: pending.requester },
      { name: 'confirmed', id: confirmedOne.bookingId, driver: confirmedOne.driver, requester: confirmedOne.requester },
      { name: 'picked up', id: pickedUp.bookingId, driver: pickedUp.driver, requester: pickedUp.requester },
      { name: 'completed', id: completed.bookingId, driver: completed.driver, requester: completed.requester },
      { name: 'declined', id: declined.offers[0]!.id, driver: declined.drivers[0]!, requester: declined.requester },
      { name: 'withdrawn', id: withdrawn.offers[0]!.id, driver: withdrawn.drivers[0]!, requester: withdrawn.requester },
      { name: 'cancelled', id: cancelled.bookingId, driver: cancelled.driver, requester: cancelled.requester },
    ];
    let refused = 0;
    for (const c of cases) {
      for (const role of ['driver', 'requester'] as const) {
        const seen = await booking(c[role].token, c.id);
        for (const action of ALL_ACTIONS) {
          if (seen.body.actions.includes(action)) continue;
          const before = { row: await rowOf(c.id), events: await eventCount(c.id) };
          const res =
            action === 'complete'
              ? await complete(c[role].token, c.id, '123456')
              : await act(c[role].token, c.id, action, action === 'cancel' ? { reason: 'other' } : {});
          expect(res, `${c.name} / ${role} / ${action}`).toMatchObject({ status: 409, body: STATE_CHANGED });
          expect(await rowOf(c.id)).toEqual(before.row);
          expect(await eventCount(c.id)).toBe(before.events);
          refused++;
        }
      }
    }
    // 7 states x 2 roles x 7 actions, less the allowed moves (pending 3, confirmed 5, picked up 4).
    expect(refused).toBe(7 * 2 * 7 - 12);
  });

  it('the actions a page shows are exactly the moves of the table', () => {
    const allowed = (status: string, role: BookingRole) =>
      MOVES.filter((m) => m.from === status && m.role === role).map((m) => m.action);
    expect(allowed('pending', 'requester')).toEqual(['choose', 'decline']);
    expect(allowed('pending', 'driver')).toEqual(['withdraw']);
    expect(allowed('confirmed', 'requester')).toEqual(['cancel', 'receive']);
    expect(allowed('confirmed', 'driver')).toEqual(['cancel', 'pickup', 'complete']);
    for (const s of ['completed', 'declined', 'cancelled']) {
      expect(allowed(s, 'driver')).toEqual([]);
      expect(allowed(s, 'requester')).toEqual([]);
    }
  });
});

describe('strangers and malformed ids', () => {
  it("answers 404 to anyone but the booking's two people, for every read and action, and changes nothing", async () => {
    const c = await confirmed(2);
    const stranger = await signUpAndIn();
    // The declined driver of the same request is a stranger to the chosen booking too.
    const declinedDriver = c.drivers[1]!;
    for (const who of [stranger, declinedDriver]) {
      const before = { row: await rowOf(c.bookingId), events: await eventCount(c.bookingId) };
      expect(await booking(who.token, c.bookingId)).toMatchObject({ status: 404, body: NOT_FOUND });
      const photo = await call('GET', `/bookings/${c.bookingId}/photo`, { cookie: who.token });
      expect(photo.status).toBe(404);
      for (const action of ALL_ACTIONS) {
        const res =
          action === 'complete'
            ? await complete(who.token, c.bookingId, c.code)
            : await act(who.token, c.bookingId, action, action === 'cancel' ? { reason: 'other' } : {});
        expect(res, action).toMatchObject({ status: 404, body: NOT_FOUND });
      }
      expect(await rowOf(c.bookingId)).toEqual(before.row);
      expect(await eventCount(c.bookingId)).toBe(before.events);
    }
    // A request's page is its owner's alone.
    for (const who of [stranger, c.driver]) {
      expect((await request(who.token, c.request.id)).body).toEqual({
        code: 'not_found',
        message: 'Request not found.',
      });
    }
  });

  it.each(['nope', '123', '00000000-0000-0000-0000-00000000000g', `${crypto.randomUUID()}x`])(
    'answers 404 for the malformed id %s on every booking and request route',
    async (id) => {
      const me = await signUpAndIn();
      expect(await booking(me.token, id)).toMatchObject({ status: 404, body: NOT_FOUND });
      expect((await call('GET', `/bookings/${id}/photo`, { cookie: me.token })).status).toBe(404);
      for (const action of ALL_ACTIONS) {
        const res = action === 'complete' ? await complete(me.token, id, '123456') : await act(me.token, id, action);
        expect(res, action).toMatchObject({ status: 404, body: NOT_FOUND });
      }
      expect((await request(me.token, id)).status).toBe(404);
    },
  );

  it('answers 404 for an unknown well-formed id, and 401 without a session', async () => {
    const me = await signUpAndIn();
    const id = crypto.randomUUID();
    expect(await booking(me.token, id)).toMatchObject({ status: 404, body: NOT_FOUND });
    expect(await act(me.token, id, 'choose')).toMatchObject({ status: 404, body: NOT_FOUND });
    const anonymous = await call('POST', `/bookings/${id}/choose`, { body: {} });
    expect(anonymous).toMatchObject({ status: 401, body: { code: 'unauthenticated' } });
    expect((await call('GET', `/bookings/${id}`)).status).toBe(401);
  });
});

describe('bad input', () => {
  const cancelWith = async (body: unknown) => {
    const c = await confirmed(1);
    const before = await rowOf(c.bookingId);
    const res = await act(c.driver.token, c.bookingId, 'cancel', body);
    expect(await rowOf(c.bookingId)).toEqual(before);
    return res;
  };

  it.each([
    [{ reason: 'bored' }, 'Please choose a reason'],
    [{ reason: '' }, 'Please choose a reason'],
    [{}, 'Please choose a reason'],
    [{ reason: 42 }, 'Please choose a reason'],
    [{ reason: 'other', details: 'x'.repeat(501) }, 'Details must be less than 500 characters'],
    [{ reason: 'other', details: 7 }, 'Details must be less than 500 characters'],
    [{ reason: 'other', details: 'a\u0000b' }, 'Text must not contain null characters'],
    [['other'], 'Please check your input'],
  ])('cancel refuses %o with 400 "%s" and changes nothing', async (body, message) => {
    expect(await cancelWith(body)).toMatchObject({ status: 400, body: { code: 'validation_error', message } });
  });

  it('cancel takes details of exactly 500 characters', async () => {
    const c = await confirmed(1);
    const res = await act(c.requester.token, c.bookingId, 'cancel', { reason: 'other', details: 'y'.repeat(500) });
    expect(res.status).toBe(200);
    expect(res.body.cancellation?.details).toHaveLength(500);
  });

  it('an action without input takes no body, {} or any object; not malformed JSON or a non-object', async () => {
    const s = await story(3);
    const noBody = await call('POST', `/bookings/${s.offers[0]!.id}/decline`, { cookie: s.requester.token });
    expect(noBody.status).toBe(200);
    const extra = await act(s.requester.token, s.offers[1]!.id, 'decline', { status: 'completed' });
    expect(extra).toMatchObject({ status: 200, body: { status: 'declined' } });
    const malformed = await call('POST', `/bookings/${s.offers[2]!.id}/decline`, {
      cookie: s.requester.token,
      raw: '{"a":',
    });
    expect(malformed).toMatchObject({ status: 400, body: { code: 'malformed_json' } });
    expect(await act(s.requester.token, s.offers[2]!.id, 'decline', [1])).toMatchObject({
      status: 400,
      body: { code: 'validation_error', message: 'Please check your input' },
    });
    expect((await rowOf(s.offers[2]!.id)).status).toBe('pending');
  });
});

describe('My Bookings tabs', () => {
  it("lists the requester's side with the drivers' names; role defaults to driver; a bad role is 400", async () => {
    const s = await story(2, 'Tab test');
    const mine = await call<PageBody<{ id: string; driver_name: string; status: string }>>(
      'GET',
      '/bookings/mine?role=requester',
      { cookie: s.requester.token },
    );
    expect(mine.body.items.map((b) => [b.id, b.driver_name, b.status])).toEqual([
      [s.offers[1]!.id, 'Driver 2', 'pending'],
      [s.offers[0]!.id, 'Driver 1', 'pending'],
    ]);
    const asDriver = await call<PageBody<{ driver_name: string }>>('GET', '/bookings/mine', {
      cookie: s.drivers[0]!.token,
    });
    expect(asDriver.body.items.map((b) => b.driver_name)).toEqual(['Driver 1']);
    const bad = await call('GET', '/bookings/mine?role=owner', { cookie: s.requester.token });
    expect(bad).toMatchObject({ status: 400, body: { code: 'validation_error' } });
  });
});
