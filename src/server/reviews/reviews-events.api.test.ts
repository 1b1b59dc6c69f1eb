import { afterEach, describe, expect, it } from 'vitest';
import type { BookingReviews } from '../../shared/reviews';
import { setupTestApp } from '../test/harness';
import { lifecycleHelpers } from '../test/lifecycle';
import { dataOf, servedEvents } from '../test/sse';

const DAY = 24 * 3_600_000;
let shift = 0;
const clock = () => new Date(Date.now() + shift);
afterEach(() => {
  shift = 0;
});

const { ctx, call, signUpAndIn } = setupTestApp({ AUTH_PER_IP_MAX: '100000' }, { clock });
const { act, confirmed } = lifecycleHelpers(call, signUpAndIn);

const events = servedEvents(() => ctx.app);

async function connect(token: string) {
  const client = await events.connect(token);
  await client.take(1); // ready
  return client;
}

async function completed() {
  const c = await confirmed(1, 'Reviewed delivery');
  expect((await act(c.requester.token, c.bookingId, 'receive')).status).toBe(200);
  return c;
}

const submit = (token: string, bookingId: string, rating: number) =>
  call<BookingReviews>('POST', `/bookings/${bookingId}/review`, { cookie: token, body: { rating } });

describe('review.changed', () => {
  it('reaches both people: on each submission (published only with the second), and on a reply', async () => {
    const { driver, requester, bookingId } = await completed();
    const hers = await connect(requester.token);
    const his = await connect(driver.token);

    expect((await submit(requester.token, bookingId, 4)).status).toBe(201);
    for (const stream of [hers, his]) {
      const [e] = await stream.take(1);
      expect(e!.event).toBe('review.changed');
      // No content: only that something changed (the review stays hidden from him).
      expect(dataOf(e!)).toEqual({ booking_id: bookingId, published: false });
    }

    const second = await submit(driver.token, bookingId, 5);
    expect(second.status).toBe(201);
    // Both published at once: each hears of the change, and is notified of the review of them.
    for (const stream of [hers, his]) {
      const [e, n] = await stream.take(2);
      expect(e).toMatchObject({ event: 'review.changed' });
      expect(dataOf(e!)).toEqual({ booking_id: bookingId, published: true });
      expect(n).toMatchObject({ event: 'notification.created' });
      expect(dataOf(n!)).toMatchObject({ notification: { type: 'review_published' } });
    }

    const replied = await call('POST', `/reviews/${second.body.theirs!.id}/reply`, {
      cookie: driver.token,
      body: { body: 'Thank you!' },
    });
    expect(replied.status).toBe(200);
    for (const stream of [hers, his])
      expect(dataOf((await stream.take(1))[0]!)).toEqual({ booking_id: bookingId, published: true });

    // Refused attempts tell nobody anything.
    expect((await submit(driver.token, bookingId, 1)).status).toBe(409);
    expect(await hers.quiet(150)).toEqual([]);
    expect(his.pending()).toEqual([]);
  });

  it('reaches both people when the sweep publishes a lone review after 14 days, and only then', async () => {
    const { driver, requester, bookingId } = await completed();
    expect((await submit(driver.token, bookingId, 3)).status).toBe(201);
    const hers = await connect(requester.token);
    const his = await connect(driver.token);

    shift = 14 * DAY + 60_000;
    expect(await ctx.app.reviews.publishDue()).toBeGreaterThanOrEqual(1);
    // She is notified of his review of her (first, with the publishing); both hear of the change.
    const [n] = await hers.take(1);
    expect(n).toMatchObject({ event: 'notification.created' });
    expect(dataOf(n!)).toMatchObject({
      notification: { type: 'review_published', text: 'Driver 1 reviewed you for “Reviewed delivery”.' },
    });
    for (const stream of [hers, his]) {
      const [e] = await stream.take(1);
      expect(e).toMatchObject({ event: 'review.changed' });
      expect(dataOf(e!)).toEqual({ booking_id: bookingId, published: true });
    }
    // A sweep with nothing to publish sends nothing.
    await ctx.app.reviews.publishDue();
    expect(await hers.quiet(150)).toEqual([]);
    expect(his.pending()).toEqual([]);
  });
});
