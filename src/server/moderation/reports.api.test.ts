import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { INPUT_FALLBACK_MESSAGE } from '../../shared/marketplace';
import { NUL_MESSAGE } from '../../shared/text';
import { reports } from '../db/schema';
import { setupTestApp } from '../test/harness';
import { lifecycleHelpers } from '../test/lifecycle';
import { countRows } from '../test/marketplace';

const { ctx, call, signUpAndIn } = setupTestApp({ AUTH_PER_IP_MAX: '100000' });
const { story } = lifecycleHelpers(call, signUpAndIn);

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const send = (token: string, body: unknown) => call<{ id: string }>('POST', '/reports', { cookie: token, body });
const invalid = (message: string) => ({ status: 400, body: { code: 'validation_error', message } });

describe('POST /api/reports', () => {
  it('files a report (201 {id}) with the trimmed details, a reason and an optional shared booking', async () => {
    const s = await story(1);
    const driver = s.drivers[0]!;
    const plain = await send(s.requester.token, {
      reported_user_id: driver.user.id,
      reason: 'spam',
      details: '  Asked me to pay outside the app.  ',
    });
    expect(plain.status).toBe(201);
    expect(plain.body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    // Either of the two may name the booking they share.
    const withBooking = await send(driver.token, {
      reported_user_id: s.requester.user.id,
      booking_id: s.offers[0]!.id,
      reason: 'prohibited_item',
      details: 'The parcel held something not allowed.',
    });
    expect(withBooking.status).toBe(201);
    expect((await send(s.requester.token, { ...validFor(driver.user.id), booking_id: null })).status).toBe(201);

    const [row] = await ctx.database.db.select().from(reports).where(eq(reports.id, plain.body.id));
    expect(row).toMatchObject({
      reporterId: s.requester.user.id,
      reportedId: driver.user.id,
      bookingId: null,
      reason: 'spam',
      details: 'Asked me to pay outside the app.',
      status: 'open',
      resolvedAt: null,
      resolvedBy: null,
    });
    const [second] = await ctx.database.db.select().from(reports).where(eq(reports.id, withBooking.body.id));
    expect(second?.bookingId).toBe(s.offers[0]!.id);
  });

  it('answers every validation message, and stores nothing', async () => {
    const me = await signUpAndIn();
    const other = await signUpAndIn();
    const ok = validFor(other.user.id);
    const before = await countRows(ctx.database.db, reports);
    const cases: [unknown, string][] = [
      [{ ...ok, reported_user_id: undefined }, 'Not found'],
      [{ ...ok, reported_user_id: 'someone' }, 'Not found'],
      [{ ...ok, reported_user_id: 7 }, 'Not found'],
      [{ ...ok, booking_id: 'not-a-booking' }, 'Not found'],
      [{ ...ok, reason: undefined }, 'Please choose a reason'],
      [{ ...ok, reason: 'rude' }, 'Please choose a reason'],
      [{ ...ok, reason: 'Spam' }, 'Please choose a reason'],
      [{ ...ok, details: undefined }, 'Details are required'],
      [{ ...ok, details: null }, 'Details are required'],
      [{ ...ok, details: '   ' }, 'Details are required'],
      [{ ...ok, details: 'x'.repeat(1001) }, 'Details must be less than 1000 characters'],
      [{ ...ok, details: 'bad\u0000byte' }, NUL_MESSAGE],
      [[ok], INPUT_FALLBACK_MESSAGE],
      [null, INPUT_FALLBACK_MESSAGE],
    ];
    for (const [body, message] of cases) expect(await send(me.token, body), message).toMatchObject(invalid(message));
    expect(await call('POST', '/reports', { cookie: me.token, raw: '{"reason":' })).toMatchObject({
      status: 400,
      body: { code: 'malformed_json' },
    });
    // 1000 characters exactly is fine.
    expect((await send(me.token, { ...ok, details: 'x'.repeat(1000) })).status).toBe(201);
    expect(await countRows(ctx.database.db, reports)).toBe(before + 1);
  });

  it('refuses reporting yourself (400), an unknown person (404) and a booking the two do not share (404)', async () => {
    const s = await story(2);
    const [first, second] = s.drivers;
    const me = s.requester;
    expect(await send(me.token, validFor(me.user.id))).toMatchObject(invalid("You can't report yourself."));
    expect(await send(me.token, validFor(UNKNOWN))).toMatchObject({
      status: 404,
      body: { code: 'not_found', message: 'User not found.' },
    });
    const notShared = { status: 404, body: { code: 'not_found', message: 'Booking not found.' } };
    // The second driver's booking is on my request, but it is not one I share with the first driver.
    expect(await send(me.token, { ...validFor(first!.user.id), booking_id: s.offers[1]!.id })).toMatchObject(notShared);
    // A stranger cannot attach someone else's booking.
    const stranger = await signUpAndIn();
    expect(await send(stranger.token, { ...validFor(second!.user.id), booking_id: s.offers[1]!.id })).toMatchObject(
      notShared,
    );
    expect(await send(me.token, { ...validFor(first!.user.id), booking_id: UNKNOWN })).toMatchObject(notShared);
  });

  it('needs a session (401)', async () => {
    expect((await call('POST', '/reports', { body: validFor(UNKNOWN) })).status).toBe(401);
  });
});

function validFor(userId: string) {
  return { reported_user_id: userId, reason: 'unsafe', details: 'Drove far too fast on the lane.' };
}
