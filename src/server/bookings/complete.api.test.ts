import { count, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { PHOTO_MAX_BYTES } from '../../shared/lifecycle';
import { attemptCounters, bookingPhotos, bookings, deliveryRequests } from '../db/schema';
import { counterKey } from '../limits/attempt-counter';
import { setupTestApp } from '../test/harness';
import { hasGpsTag, jpegWithGps, lifecycleHelpers, testImage, type PhotoFile } from '../test/lifecycle';
import { PHOTO_MAX_PIXELS } from './photo';

const { ctx, call, signUpAndIn } = setupTestApp({ AUTH_PER_IP_MAX: '100000' });
const { act, booking, complete, confirmed, wrongCode } = lifecycleHelpers(call, signUpAndIn);

const WRONG = { code: 'wrong_delivery_code', message: 'That delivery code is not correct.' };
const LOCKED = {
  code: 'delivery_code_locked',
  message: 'Too many attempts. Ask the requester to mark the delivery as received.',
};
const INVALID_IMAGE = {
  code: 'invalid_image',
  message: 'That file is not a supported image (JPEG, PNG or WebP up to 10 MB).',
};

async function state(bookingId: string) {
  const [row] = await ctx.database.db
    .select({ status: bookings.status, request: deliveryRequests.status })
    .from(bookings)
    .innerJoin(deliveryRequests, eq(deliveryRequests.id, bookings.requestId))
    .where(eq(bookings.id, bookingId));
  const [photos] = await ctx.database.db
    .select({ n: count() })
    .from(bookingPhotos)
    .where(eq(bookingPhotos.bookingId, bookingId));
  return { ...row, photos: photos?.n };
}
const UNCHANGED = { status: 'confirmed', request: 'matched', photos: 0 };

describe('complete: the delivery code', () => {
  it('refuses a wrong code with 422 and changes nothing', async () => {
    const c = await confirmed();
    const res = await complete(c.driver.token, c.bookingId, wrongCode(c.code));
    expect(res).toMatchObject({ status: 422, body: WRONG });
    expect(await state(c.bookingId)).toEqual(UNCHANGED);
  });

  it.each(['', '12345', '1234567', 'abcdef', '12 456'])('refuses the code %j with 400', async (code) => {
    const c = await confirmed();
    const res = await complete(c.driver.token, c.bookingId, code);
    expect(res).toMatchObject({
      status: 400,
      body: { code: 'validation_error', message: 'Enter the 6-digit delivery code' },
    });
    expect(await state(c.bookingId)).toEqual(UNCHANGED);
  });

  it('after 5 wrong codes refuses every try for 15 minutes, the right code included; receive still works', async () => {
    const c = await confirmed();
    for (let i = 0; i < 5; i++)
      expect(await complete(c.driver.token, c.bookingId, wrongCode(c.code))).toMatchObject({
        status: 422,
        body: WRONG,
      });
    const locked = await complete(c.driver.token, c.bookingId, c.code);
    expect(locked).toMatchObject({ status: 429, body: LOCKED });
    const retryAfter = Number(locked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(await state(c.bookingId)).toEqual(UNCHANGED);
    // The lock is per booking: another booking's driver is not affected.
    const other = await confirmed();
    expect((await complete(other.driver.token, other.bookingId, other.code)).status).toBe(200);
    // The requester can always finish it.
    expect((await act(c.requester.token, c.bookingId, 'receive')).body.status).toBe('completed');
  });

  it('does not count right codes: 4 wrong, then the right one completes', async () => {
    const c = await confirmed();
    for (let i = 0; i < 4; i++) await complete(c.driver.token, c.bookingId, wrongCode(c.code));
    expect((await complete(c.driver.token, c.bookingId, c.code)).status).toBe(200);
  });

  it('only the requester ever receives the code', async () => {
    const c = await confirmed();
    const driverView = await booking(c.driver.token, c.bookingId);
    expect(driverView.body.delivery_code).toBeNull();
    expect(JSON.stringify(driverView.body)).not.toContain(c.code);
    const list = await call('GET', '/bookings/mine', { cookie: c.driver.token });
    expect(JSON.stringify(list.body)).not.toContain(c.code);
  });

  it('takes only multipart/form-data', async () => {
    const c = await confirmed();
    const json = await call('POST', `/bookings/${c.bookingId}/complete`, {
      cookie: c.driver.token,
      body: { code: c.code },
    });
    expect(json).toMatchObject({
      status: 415,
      body: { code: 'unsupported_media_type', message: 'Send the form as multipart/form-data.' },
    });
    const empty = await call('POST', `/bookings/${c.bookingId}/complete`, { cookie: c.driver.token });
    expect(empty.status).toBe(400);
    expect(await state(c.bookingId)).toEqual(UNCHANGED);
  });
});

describe('complete: the handoff photo', () => {
  it('re-encodes a phone JPEG to WebP within 1600 px with its EXIF and GPS gone; only the two people see it', async () => {
    const input = await jpegWithGps(3000, 2000);
    const inMeta = await sharp(input).metadata();
    expect(hasGpsTag(inMeta.exif)).toBe(true);

    const c = await confirmed();
    const res = await complete(c.driver.token, c.bookingId, c.code, { bytes: input });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'completed', has_photo: true });

    for (const who of [c.driver, c.requester]) {
      const photo = await ctx.app.request(`http://localhost/api/bookings/${c.bookingId}/photo`, {
        headers: { cookie: `rr_session=${who.token}` },
      });
      expect(photo.status).toBe(200);
      expect(photo.headers.get('content-type')).toBe('image/webp');
      expect(photo.headers.get('cache-control')).toMatch(/^private\b/);
      const out = Buffer.from(await photo.arrayBuffer());
      const meta = await sharp(out).metadata();
      expect(meta).toMatchObject({ format: 'webp', width: 1600, height: 1067 });
      expect(meta.exif).toBeUndefined();
      expect(meta.icc).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(meta.iptc).toBeUndefined();
      expect(hasGpsTag(out)).toBe(false);
    }
    const stranger = await signUpAndIn();
    expect((await call('GET', `/bookings/${c.bookingId}/photo`, { cookie: stranger.token })).status).toBe(404);
  });

  it.each(['png', 'webp'] as const)('takes a %s, keeps a small one at its size', async (format) => {
    const c = await confirmed();
    const bytes = await testImage(format, 640, 480);
    const res = await complete(c.driver.token, c.bookingId, c.code, { bytes, type: `image/${format}` });
    expect(res.status).toBe(200);
    const [row] = await ctx.database.db.select().from(bookingPhotos).where(eq(bookingPhotos.bookingId, c.bookingId));
    expect(row).toMatchObject({ width: 640, height: 480 });
    expect((await sharp(row!.image).metadata()).format).toBe('webp');
  });

  it('answers 404 for the photo of a booking that has none', async () => {
    const c = await confirmed();
    await complete(c.driver.token, c.bookingId, c.code);
    const res = await call('GET', `/bookings/${c.bookingId}/photo`, { cookie: c.requester.token });
    expect(res).toMatchObject({ status: 404, body: { code: 'not_found' } });
  });

  it('treats the empty part a browser sends for a file input left empty as no photo', async () => {
    const c = await confirmed();
    const raw = [
      '--b',
      'Content-Disposition: form-data; name="code"',
      '',
      c.code,
      '--b',
      'Content-Disposition: form-data; name="photo"; filename=""',
      'Content-Type: application/octet-stream',
      '',
      '',
      '--b--',
      '',
    ].join('\r\n');
    const res = await call<{ has_photo: boolean }>('POST', `/bookings/${c.bookingId}/complete`, {
      cookie: c.driver.token,
      raw,
      headers: { 'content-type': 'multipart/form-data; boundary=b' },
    });
    expect(res).toMatchObject({ status: 200, body: { status: 'completed', has_photo: false } });
  });

  const bad: [string, () => Promise<PhotoFile>][] = [
    ['a text file called photo.jpg', async () => ({ bytes: Buffer.from('just some text, not a picture') })],
    ['a GIF', async () => ({ bytes: await testImage('gif'), type: 'image/gif', name: 'a.gif' })],
    ['a TIFF declared as JPEG', async () => ({ bytes: await testImage('tiff') })],
    [
      'an SVG',
      async () => ({
        bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'),
        type: 'image/svg+xml',
      }),
    ],
    ['a truncated JPEG', async () => ({ bytes: (await testImage('jpeg', 800, 600)).subarray(0, 600) })],
    ['an empty file with a name', async () => ({ bytes: new Uint8Array(0) })],
    [
      'a decompression bomb (a small PNG of more than 50 million pixels)',
      async () => ({ bytes: await testImage('png', 8000, 8000), type: 'image/png' }),
    ],
    [
      'a file just over 10 MB',
      async () => {
        const bytes = Buffer.alloc(PHOTO_MAX_BYTES + 1);
        (await testImage('jpeg')).copy(bytes);
        return { bytes };
      },
    ],
  ];

  it.each(bad)('refuses %s with 400 invalid_image: not completed, nothing stored', async (_name, make) => {
    const c = await confirmed();
    const res = await complete(c.driver.token, c.bookingId, c.code, await make());
    expect(res).toMatchObject({ status: 400, body: INVALID_IMAGE });
    expect(await state(c.bookingId)).toEqual(UNCHANGED);
  });

  it('refuses a photo field that is text, or sent twice', async () => {
    const c = await confirmed();
    const text = new FormData();
    text.set('code', c.code);
    text.set('photo', 'not a file');
    const asText = await call('POST', `/bookings/${c.bookingId}/complete`, { cookie: c.driver.token, form: text });
    expect(asText).toMatchObject({ status: 400, body: INVALID_IMAGE });
    const twice = new FormData();
    twice.set('code', c.code);
    const jpeg = await testImage('jpeg');
    const part = new Uint8Array(jpeg);
    twice.append('photo', new File([part], 'a.jpg', { type: 'image/jpeg' }));
    twice.append('photo', new File([part], 'b.jpg', { type: 'image/jpeg' }));
    const asTwo = await call('POST', `/bookings/${c.bookingId}/complete`, { cookie: c.driver.token, form: twice });
    expect(asTwo).toMatchObject({ status: 400, body: INVALID_IMAGE });
    expect(await state(c.bookingId)).toEqual(UNCHANGED);
  });

  it('answers 413 for a body over 10 MB plus the form overhead, and changes nothing', async () => {
    const c = await confirmed();
    const res = await complete(c.driver.token, c.bookingId, c.code, {
      bytes: Buffer.alloc(PHOTO_MAX_BYTES + 128 * 1024),
    });
    expect(res).toMatchObject({ status: 413, body: { code: 'payload_too_large' } });
    expect(await state(c.bookingId)).toEqual(UNCHANGED);
    // Everywhere else in /api the limit is still 64 KiB.
    const big = await call('POST', `/bookings/${c.bookingId}/cancel`, {
      cookie: c.driver.token,
      body: { reason: 'other', details: 'x'.repeat(70 * 1024) },
    });
    expect(big.status).toBe(413);
  });

  it('refuses a file that is not an image before looking at the code: no try is counted', async () => {
    const c = await confirmed();
    const res = await complete(c.driver.token, c.bookingId, wrongCode(c.code), { bytes: Buffer.from('nope') });
    expect(res).toMatchObject({ status: 400, body: INVALID_IMAGE });
    const [counter] = await ctx.database.db
      .select()
      .from(attemptCounters)
      .where(eq(attemptCounters.key, counterKey('delivery-code', c.bookingId)));
    // The move's read checked the code's tries (counting nothing); the wrong code was never counted.
    expect(counter?.hits ?? 0).toBe(0);
  });

  it('decodes at most PHOTO_MAX_PIXELS pixels', async () => {
    const c = await confirmed();
    // 7,000 x 7,000 = 49 million: within the limit, and stored at 1600 px.
    const bytes = await testImage('png', 7000, 7000);
    const res = await complete(c.driver.token, c.bookingId, c.code, { bytes, type: 'image/png' });
    expect(res.status).toBe(200);
    expect(7000 * 7000).toBeLessThan(PHOTO_MAX_PIXELS);
    const [row] = await ctx.database.db.select().from(bookingPhotos).where(eq(bookingPhotos.bookingId, c.bookingId));
    expect(row).toMatchObject({ width: 1600, height: 1600 });
  });
});
