import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  CANCEL_DETAILS_MESSAGE,
  CANCEL_REASON_MESSAGE,
  CANCEL_REASONS,
  DELIVERY_CODE_MESSAGE,
  LIFECYCLE_ERRORS,
} from '../../shared/lifecycle';
import { NUL_MESSAGE } from '../../shared/marketplace';
import { bookingEvents, bookingPhotos, bookings, deliveryRequests } from '../db/schema';
import { setupTestApp } from '../test/harness';
import { lifecycleHelpers } from '../test/lifecycle';
import { anyText, badOptionalText, notAString } from '../test/properties';

const { ctx, call, signUpAndIn } = setupTestApp({ AUTH_PER_IP_MAX: '100000' });
const { act, complete, confirmed } = lifecycleHelpers(call, signUpAndIn);

let c: Awaited<ReturnType<typeof confirmed>>;
let completedId = '';
let completedToken = '';

beforeAll(async () => {
  c = await confirmed(1, 'Properties');
  const done = await confirmed(1, 'Already done');
  await act(done.requester.token, done.bookingId, 'receive');
  completedId = done.bookingId;
  completedToken = done.driver.token;
});

/** Everything a refused call must leave as it was: the booking, its request, its events and photo. */
async function snapshot(bookingId: string) {
  const db = ctx.database.db;
  const [booking] = await db.select().from(bookings).where(eq(bookings.id, bookingId));
  const [request] = await db.select().from(deliveryRequests).where(eq(deliveryRequests.id, booking!.requestId));
  const events = await db.select().from(bookingEvents).where(eq(bookingEvents.bookingId, bookingId));
  const photos = await db.select().from(bookingPhotos).where(eq(bookingPhotos.bookingId, bookingId));
  return { booking, request, events, photos: photos.length };
}

const RUNS = { numRuns: 50 };
const isReason = (v: unknown) => typeof v === 'string' && Object.hasOwn(CANCEL_REASONS, v);

/** A cancel body that must be refused, with the message the API must give (reason is checked first). */
const badCancel = fc.oneof(
  fc
    .oneof(anyText({ maxLength: 30 }), notAString, fc.constant(null), fc.constant(undefined))
    .filter((r) => !isReason(r))
    .chain((reason) =>
      fc
        .option(fc.oneof(anyText({ maxLength: 40 }), notAString), { nil: undefined })
        .map((details) => [{ reason, details }, CANCEL_REASON_MESSAGE] as const),
    ),
  fc
    .tuple(fc.constantFrom(...Object.keys(CANCEL_REASONS)), badOptionalText(500, CANCEL_DETAILS_MESSAGE, NUL_MESSAGE))
    .map(([reason, [details, message]]) => [{ reason, details }, message] as const),
);

describe('booking writes under random input', () => {
  it('cancel answers 400 with the first bad field for any bad body, and changes nothing', async () => {
    const before = await snapshot(c.bookingId);
    await fc.assert(
      fc.asyncProperty(badCancel, async ([body, message]) => {
        const res = await act(c.driver.token, c.bookingId, 'cancel', body);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ code: 'validation_error', message });
      }),
      RUNS,
    );
    expect(await snapshot(c.bookingId)).toEqual(before);
  });

  it('complete answers 400 for any code that is not 6 digits, and counts no attempt', async () => {
    const before = await snapshot(c.bookingId);
    const notSixDigits = anyText({ maxLength: 12 }).filter((v) => !/^\d{6}$/.test(v.trim()));
    await fc.assert(
      fc.asyncProperty(notSixDigits, async (code) => {
        const res = await complete(c.driver.token, c.bookingId, code);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ code: 'validation_error', message: DELIVERY_CODE_MESSAGE });
      }),
      RUNS,
    );
    expect(await snapshot(c.bookingId)).toEqual(before);
    // Not one try was counted: five wrong codes are still allowed before the lock.
    expect(
      (
        await complete(
          c.driver.token,
          c.bookingId,
          c.code.replace(/./, (d) => String((+d + 1) % 10)),
        )
      ).status,
    ).toBe(422);
  });

  it('complete with the right code and any bytes that are not a decodable image answers 400 invalid_image', async () => {
    const before = await snapshot(c.bookingId);
    const magic = [
      Buffer.from([0xff, 0xd8, 0xff]),
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.from('RIFF\0\0\0\0WEBP', 'latin1'),
      Buffer.alloc(0),
    ];
    const bytes = fc
      .tuple(fc.constantFrom(...magic), fc.uint8Array({ minLength: 1, maxLength: 3000 }))
      .map(([head, tail]) => Buffer.concat([head, tail]));
    const type = fc.constantFrom('image/jpeg', 'image/png', 'image/webp', 'application/octet-stream', '');
    await fc.assert(
      fc.asyncProperty(bytes, type, async (data, mime) => {
        const res = await complete(c.driver.token, c.bookingId, c.code, { bytes: data, type: mime });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ code: 'invalid_image', message: LIFECYCLE_ERRORS.invalid_image.message });
      }),
      { numRuns: 40 },
    );
    expect(await snapshot(c.bookingId)).toEqual(before);
  });

  it('any action with any JSON body on a completed booking answers 400 or 409, never anything else', async () => {
    const before = await snapshot(completedId);
    const action = fc.constantFrom('choose', 'decline', 'withdraw', 'cancel', 'pickup', 'receive');
    await fc.assert(
      fc.asyncProperty(action, fc.jsonValue({ maxDepth: 2 }), async (name, body) => {
        const res = await call('POST', `/bookings/${completedId}/${name}`, { cookie: completedToken, body });
        expect([400, 409]).toContain(res.status);
        if (res.status === 409) expect(res.body).toMatchObject({ code: 'booking_state_changed' });
      }),
      RUNS,
    );
    expect(await snapshot(completedId)).toEqual(before);
  });

  it('any id and any path after /bookings/ answers 404 (or 405), never a 5xx', async () => {
    const before = await snapshot(c.bookingId);
    // '.' and '..' would be resolved away by URL normalisation: a different path altogether.
    const notDots = (v: string) => v !== '.' && v !== '..';
    const segment = fc.oneof(fc.uuid(), anyText({ minLength: 1, maxLength: 40 }).filter(notDots));
    const action = fc.oneof(
      fc.constantFrom('choose', 'decline', 'withdraw', 'cancel', 'pickup', 'complete', 'receive', 'photo'),
      anyText({ minLength: 1, maxLength: 12 }).filter(notDots),
    );
    await fc.assert(
      fc.asyncProperty(segment, action, fc.constantFrom('GET', 'POST'), async (id, name, method) => {
        const path = `/bookings/${encodeURIComponent(id)}/${encodeURIComponent(name)}`;
        const res = await call(method, path, { cookie: c.driver.token, body: method === 'POST' ? {} : undefined });
        expect(res.status).toBeLessThan(500);
        expect([400, 404, 405, 415]).toContain(res.status);
      }),
      RUNS,
    );
    expect(await snapshot(c.bookingId)).toEqual(before);
  });

  it('any garbage sent as multipart/form-data to complete answers 400, never a 5xx', async () => {
    const before = await snapshot(c.bookingId);
    await fc.assert(
      fc.asyncProperty(anyText({ maxLength: 300 }), fc.constantFrom('x', 'b', '----a'), async (raw, boundary) => {
        const res = await call('POST', `/bookings/${c.bookingId}/complete`, {
          cookie: c.driver.token,
          raw,
          headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        });
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ code: 'validation_error' });
      }),
      { numRuns: 40 },
    );
    expect(await snapshot(c.bookingId)).toEqual(before);
  });
});
