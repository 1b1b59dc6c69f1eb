import { eq, inArray } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryRequest } from '../../shared/marketplace';
import type { AdminReport } from '../../shared/moderation';
import {
  COMMENT_MESSAGE,
  RATING_MESSAGE,
  RATING_REQUIRED_MESSAGE,
  REPLY_MESSAGE,
  REPLY_REQUIRED_MESSAGE,
  REVIEW_ERRORS,
  type BookingReviews,
  type Review,
} from '../../shared/reviews';
import { profiles, reports, reviews, users } from '../db/schema';
import { STRONG_PASSWORD, setupTestApp } from '../test/harness';
import { lifecycleHelpers } from '../test/lifecycle';
import type { PageBody } from '../test/marketplace';

const DAY = 24 * 3_600_000;
const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const BOOKING_NOT_FOUND = { code: 'not_found', message: 'Booking not found.' };
const REVIEW_NOT_FOUND = { code: 'not_found', message: 'Review not found.' };
const refusal = (code: keyof typeof REVIEW_ERRORS) => ({ code, message: REVIEW_ERRORS[code].message });

// The app's clock: the wall clock moved by `shift` (the 14-day rules are tested by moving it, not by waiting).
let shift = 0;
const clock = () => new Date(Date.now() + shift);
afterEach(() => {
  shift = 0;
});

const { ctx, call, signUpAndIn, signIn } = setupTestApp({ AUTH_PER_IP_MAX: '100000' }, { clock });
const { act, confirmed, story, postRequest } = lifecycleHelpers(call, signUpAndIn);

type Account = { token: string; user: { id: string } };

const readReviews = (token: string, bookingId: string) =>
  call<BookingReviews>('GET', `/bookings/${bookingId}/review`, { cookie: token });
const submit = (token: string, bookingId: string, body: unknown) =>
  call<BookingReviews>('POST', `/bookings/${bookingId}/review`, { cookie: token, body });
const reply = (token: string, reviewId: string, body: unknown) =>
  call<Review>('POST', `/reviews/${reviewId}/reply`, { cookie: token, body });

/** A booking the requester marked received: completed now (ended_at = the database's now()). */
async function completed(title = 'Feed sacks') {
  const c = await confirmed(1, title);
  const done = await act(c.requester.token, c.bookingId, 'receive');
  if (done.status !== 200) throw new Error(`receive refused: ${done.status}`);
  return { driver: c.driver as Account, requester: c.requester as Account, bookingId: c.bookingId };
}

async function ratingOf(userId: string) {
  const [row] = await ctx.database.db
    .select({ count: profiles.ratingCount, sum: profiles.ratingSum })
    .from(profiles)
    .where(eq(profiles.userId, userId));
  return row;
}

const reviewRows = (bookingId: string) =>
  ctx.database.db.select().from(reviews).where(eq(reviews.bookingId, bookingId)).orderBy(reviews.createdAt);

/** Publishes both reviews of a fresh completed booking; returns them as each person sees the other's. */
async function publishedPair() {
  const b = await completed('Published pair');
  expect((await submit(b.requester.token, b.bookingId, { rating: 4, comment: 'Careful driver' })).status).toBe(201);
  expect((await submit(b.driver.token, b.bookingId, { rating: 5 })).status).toBe(201);
  const ofDriver = (await readReviews(b.driver.token, b.bookingId)).body.theirs!;
  const ofRequester = (await readReviews(b.requester.token, b.bookingId)).body.theirs!;
  return { ...b, ofDriver, ofRequester };
}

let admin: Account;
beforeAll(async () => {
  const account = await signUpAndIn('Ada Admin');
  await ctx.database.db.update(users).set({ role: 'admin' }).where(eq(users.id, account.user.id));
  admin = { ...account, token: await signIn(account.email, STRONG_PASSWORD) };
});

describe('double-blind reviews', () => {
  it('hides each review from the other person until both have reviewed, then publishes both at once', async () => {
    const { driver, requester, bookingId } = await completed();
    const before = await readReviews(driver.token, bookingId);
    expect(before.status).toBe(200);
    expect(before.body).toEqual({
      state: 'open',
      closes_at: expect.any(String),
      mine: null,
      theirs: null,
      other_reviewed: false,
    });

    // The requester reviews first: she sees her review, unpublished; the driver only learns that she reviewed.
    const first = await submit(requester.token, bookingId, { rating: 4, comment: '  On time, friendly.  ' });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      state: 'open',
      closes_at: before.body.closes_at,
      mine: {
        id: expect.any(String),
        booking_id: bookingId,
        rating: 4,
        comment: 'On time, friendly.',
        reviewer: { id: requester.user.id, full_name: 'Ana Diaz', verified: false, ambassador: false },
        reviewer_role: 'requester',
        reviewee: { id: driver.user.id, full_name: 'Driver 1' },
        created_at: expect.any(String),
        published_at: null,
        reply: null,
      },
      theirs: null,
      other_reviewed: false,
    });
    expect((await readReviews(requester.token, bookingId)).body).toEqual(first.body);
    const driverView = await readReviews(driver.token, bookingId);
    expect(driverView.body).toEqual({ ...before.body, other_reviewed: true });
    expect(JSON.stringify(driverView.body)).not.toContain('On time');
    // Nothing counts yet.
    expect(await ratingOf(driver.user.id)).toEqual({ count: 0, sum: 0 });

    // The driver reviews: both are published in that transaction, at the same instant, and counted.
    const second = await submit(driver.token, bookingId, { rating: 5, comment: null });
    expect(second.status).toBe(201);
    const publishedAt = second.body.mine!.published_at;
    expect(publishedAt).toEqual(expect.any(String));
    expect(second.body).toMatchObject({
      state: 'open',
      mine: { rating: 5, comment: null, reviewer_role: 'driver', reviewee: { id: requester.user.id } },
      theirs: { id: first.body.mine!.id, rating: 4, comment: 'On time, friendly.', published_at: publishedAt },
      other_reviewed: true,
    });
    const hers = await readReviews(requester.token, bookingId);
    expect(hers.body).toMatchObject({
      mine: { id: first.body.mine!.id, published_at: publishedAt },
      theirs: { id: second.body.mine!.id, rating: 5, published_at: publishedAt },
      other_reviewed: true,
    });
    const rows = await reviewRows(bookingId);
    expect(rows.map((r) => r.publishedAt?.toISOString())).toEqual([publishedAt, publishedAt]);
    expect(await ratingOf(driver.user.id)).toEqual({ count: 1, sum: 4 });
    expect(await ratingOf(requester.user.id)).toEqual({ count: 1, sum: 5 });

    // The counters are what the cards show: a new request of hers carries her rating, in Browse too.
    const request = await postRequest(requester.token, 'After the review');
    expect(request.requester_rating).toEqual({ count: 1, average: 5 });
    const browse = await call<PageBody<DeliveryRequest>>('GET', '/requests/browse?limit=50', {
      cookie: driver.token,
    });
    expect(browse.body.items.find((r) => r.id === request.id)?.requester_rating).toEqual({ count: 1, average: 5 });
  });

  it('the driver may review first just the same', async () => {
    const { driver, requester, bookingId } = await completed();
    expect((await submit(driver.token, bookingId, { rating: 2 })).body).toMatchObject({
      mine: { rating: 2, published_at: null },
      theirs: null,
    });
    expect((await readReviews(requester.token, bookingId)).body).toMatchObject({ mine: null, other_reviewed: true });
    expect((await readReviews(requester.token, bookingId)).body.theirs).toBeNull();
    expect((await submit(requester.token, bookingId, { rating: 3 })).body).toMatchObject({
      mine: { rating: 3, published_at: expect.any(String) },
      theirs: { rating: 2 },
    });
    expect(await ratingOf(requester.user.id)).toEqual({ count: 1, sum: 2 });
  });
});

describe('the 14-day period (by the injected clock)', () => {
  it('stays open until 14 days after completion, then closes: no review can be left', async () => {
    const { driver, requester, bookingId } = await completed();
    const view = await readReviews(driver.token, bookingId);
    const closesAt = new Date(view.body.closes_at!).getTime();
    // closes_at is ended_at + 14 days.
    expect(closesAt - Date.now()).toBeGreaterThan(14 * DAY - 60_000);
    expect(closesAt - Date.now()).toBeLessThanOrEqual(14 * DAY);

    shift = closesAt - Date.now() - 5_000;
    expect((await readReviews(driver.token, bookingId)).body.state).toBe('open');
    expect((await submit(driver.token, bookingId, { rating: 3 })).status).toBe(201);

    shift = closesAt - Date.now() + 1_000;
    expect((await readReviews(requester.token, bookingId)).body).toMatchObject({ state: 'closed' });
    expect(await submit(requester.token, bookingId, { rating: 5 })).toMatchObject({
      status: 409,
      body: refusal('review_period_ended'),
    });
    expect(await reviewRows(bookingId)).toHaveLength(1);
  });

  it('the sweep publishes a lone review once the period has ended, with the counters, exactly once', async () => {
    const { driver, requester, bookingId } = await completed();
    const other = await completed();
    expect((await submit(requester.token, bookingId, { rating: 2, comment: 'Late' })).status).toBe(201);
    expect((await submit(other.driver.token, other.bookingId, { rating: 5 })).status).toBe(201);
    const before = await ratingOf(driver.user.id);

    // Not yet due: the sweep leaves it alone.
    shift = 13 * DAY;
    expect(await ctx.app.reviews.publishDue()).toBe(0);
    expect((await readReviews(driver.token, bookingId)).body).toMatchObject({ theirs: null, other_reviewed: true });

    shift = 14 * DAY + 60_000;
    const at = clock();
    // Closed, but not yet swept: the review is still hidden.
    expect((await readReviews(driver.token, bookingId)).body).toMatchObject({ state: 'closed', theirs: null });
    const published = await ctx.app.reviews.publishDue();
    expect(published).toBeGreaterThanOrEqual(2);
    const view = await readReviews(driver.token, bookingId);
    expect(view.body).toMatchObject({ state: 'closed', mine: null, theirs: { rating: 2, comment: 'Late' } });
    // published_at is the clock's time (the sweep passes it), not the database's now().
    const swept = new Date(view.body.theirs!.published_at!).getTime();
    expect(Math.abs(swept - at.getTime())).toBeLessThan(5_000);
    expect(swept - Date.now()).toBeGreaterThan(13 * DAY);
    expect(await ratingOf(driver.user.id)).toEqual({ count: before!.count + 1, sum: before!.sum + 2 });
    expect((await readReviews(other.requester.token, other.bookingId)).body.theirs).toMatchObject({ rating: 5 });

    // Again: nothing left, nothing counted twice.
    expect(await ctx.app.reviews.publishDue()).toBe(0);
    expect(await ratingOf(driver.user.id)).toEqual({ count: before!.count + 1, sum: before!.sum + 2 });
    expect((await reviewRows(bookingId))[0]?.publishedAt?.getTime()).toBe(swept);
    // The reviewed person may not review any more, and may reply.
    expect((await submit(driver.token, bookingId, { rating: 1 })).status).toBe(409);
    expect((await reply(driver.token, view.body.theirs!.id, { body: 'Traffic on the A-road.' })).status).toBe(200);
  });
});

describe('who may review, and when', () => {
  it('answers 404 to strangers, unknown and malformed ids, for reading and writing, and stores nothing', async () => {
    const { driver, bookingId } = await completed();
    const stranger = await signUpAndIn('Nosy Neighbour');
    for (const [token, id] of [
      [stranger.token, bookingId],
      [driver.token, UNKNOWN],
      [driver.token, 'not-a-uuid'],
    ] as const) {
      expect(await readReviews(token, id)).toMatchObject({ status: 404, body: BOOKING_NOT_FOUND });
      expect(await submit(token, id, { rating: 5 })).toMatchObject({ status: 404, body: BOOKING_NOT_FOUND });
    }
    expect(await reviewRows(bookingId)).toEqual([]);
    expect((await call('GET', `/bookings/${bookingId}/review`)).status).toBe(401);
    expect((await call('POST', `/bookings/${bookingId}/review`, { body: { rating: 5 } })).status).toBe(401);
  });

  it('is not open before completion (pending, confirmed) nor for declined or cancelled bookings', async () => {
    const s = await story(3, 'Not yet');
    const [chosen, declined, withdrawn] = s.offers;
    expect((await act(s.requester.token, declined!.id, 'decline')).status).toBe(200);
    expect((await act(s.drivers[2]!.token, withdrawn!.id, 'withdraw')).status).toBe(200);
    // Pending.
    expect((await readReviews(s.drivers[0]!.token, chosen!.id)).body).toEqual({
      state: 'not_completed',
      closes_at: null,
      mine: null,
      theirs: null,
      other_reviewed: false,
    });
    expect(await submit(s.requester.token, chosen!.id, { rating: 5 })).toMatchObject({
      status: 409,
      body: refusal('review_not_open'),
    });
    // Confirmed.
    expect((await act(s.requester.token, chosen!.id, 'choose')).status).toBe(200);
    expect(await submit(s.drivers[0]!.token, chosen!.id, { rating: 5 })).toMatchObject({
      status: 409,
      body: refusal('review_not_open'),
    });
    // Ended without a delivery.
    for (const [token, id] of [
      [s.drivers[1]!.token, declined!.id],
      [s.requester.token, withdrawn!.id],
    ] as const) {
      expect((await readReviews(token, id)).body).toMatchObject({ state: 'not_completed', closes_at: null });
      expect(await submit(token, id, { rating: 4 })).toMatchObject({ status: 409, body: refusal('review_not_open') });
    }
    const cancelled = await confirmed(1, 'Cancelled');
    expect((await act(cancelled.driver.token, cancelled.bookingId, 'cancel', { reason: 'plans_changed' })).status).toBe(
      200,
    );
    expect(await submit(cancelled.requester.token, cancelled.bookingId, { rating: 1 })).toMatchObject({
      status: 409,
      body: refusal('review_not_open'),
    });
    const stored = await ctx.database.db
      .select()
      .from(reviews)
      .where(inArray(reviews.bookingId, [chosen!.id, declined!.id, withdrawn!.id, cancelled.bookingId]));
    expect(stored).toEqual([]);
  });

  it('one review per person per booking: a second is 409 already_reviewed and changes nothing', async () => {
    const { driver, requester, bookingId } = await completed();
    expect((await submit(driver.token, bookingId, { rating: 4, comment: 'First' })).status).toBe(201);
    expect(await submit(driver.token, bookingId, { rating: 1, comment: 'Changed my mind' })).toMatchObject({
      status: 409,
      body: refusal('already_reviewed'),
    });
    // Twice at once: still one.
    const twice = await Promise.all([
      submit(requester.token, bookingId, { rating: 5 }),
      submit(requester.token, bookingId, { rating: 5 }),
    ]);
    expect(twice.map((r) => r.status).sort()).toEqual([201, 409]);
    const rows = await reviewRows(bookingId);
    expect(rows.map((r) => [r.reviewerId, r.rating, r.comment])).toEqual([
      [driver.user.id, 4, 'First'],
      [requester.user.id, 5, null],
    ]);
    expect(await submit(requester.token, bookingId, { rating: 5 })).toMatchObject({ status: 409 });
    expect(await ratingOf(requester.user.id)).toEqual({ count: 1, sum: 4 });
    expect(await ratingOf(driver.user.id)).toEqual({ count: 1, sum: 5 });
  });

  it('a block between the two does not stop reviewing a completed delivery', async () => {
    const { driver, requester, bookingId } = await completed();
    expect((await call('POST', '/blocks', { cookie: requester.token, body: { user_id: driver.user.id } })).status).toBe(
      201,
    );
    expect((await submit(driver.token, bookingId, { rating: 3 })).status).toBe(201);
    expect((await submit(requester.token, bookingId, { rating: 3 })).body.theirs).toMatchObject({ rating: 3 });
  });
});

describe('bad input', () => {
  it('refuses bad ratings and comments with 400 and the schema message, storing nothing', async () => {
    const { driver, bookingId } = await completed();
    const cases: [unknown, string][] = [
      [{ rating: 0 }, RATING_MESSAGE],
      [{ rating: 6 }, RATING_MESSAGE],
      [{ rating: 2.5 }, RATING_MESSAGE],
      [{ rating: 'five' }, RATING_MESSAGE],
      [{ rating: '5' }, RATING_MESSAGE],
      [{ rating: -1 }, RATING_MESSAGE],
      [{ rating: null }, RATING_REQUIRED_MESSAGE],
      [{}, RATING_REQUIRED_MESSAGE],
      [{ comment: 'No stars' }, RATING_REQUIRED_MESSAGE],
      [{ rating: 5, comment: 'x'.repeat(1001) }, COMMENT_MESSAGE],
      [{ rating: 5, comment: 42 }, COMMENT_MESSAGE],
      [{ rating: 5, comment: 'a\u0000b' }, 'Text must not contain null characters'],
      [[5], 'Please check your input'],
      ['five', 'Please check your input'],
      [5, 'Please check your input'],
      [null, 'Please check your input'],
    ];
    for (const [body, message] of cases)
      expect(await submit(driver.token, bookingId, body), JSON.stringify(body)).toMatchObject({
        status: 400,
        body: { code: 'validation_error', message },
      });
    expect((await call('POST', `/bookings/${bookingId}/review`, { cookie: driver.token, raw: '{' })).body).toEqual({
      code: 'malformed_json',
      message: 'The request body is not valid JSON.',
    });
    expect((await call('POST', `/bookings/${bookingId}/review`, { cookie: driver.token })).status).toBe(400);
    // A bad id is still the booking's 404 whatever the body.
    expect(await submit(driver.token, 'nope', { rating: 9 })).toMatchObject({ status: 404, body: BOOKING_NOT_FOUND });
    expect(await reviewRows(bookingId)).toEqual([]);
    // Exactly 1000 characters is fine; a blank comment is no comment.
    const ok = await submit(driver.token, bookingId, { rating: 5, comment: 'y'.repeat(1000) });
    expect(ok.status).toBe(201);
    expect(ok.body.mine?.comment).toHaveLength(1000);
    const other = await completed();
    expect((await submit(other.driver.token, other.bookingId, { rating: 1, comment: '   ' })).body.mine?.comment).toBe(
      null,
    );
  });
});

describe('replies', () => {
  it('only the reviewed person, only under a published review, once, at most 500 characters', async () => {
    const b = await completed();
    const mine = await submit(b.requester.token, b.bookingId, { rating: 4, comment: 'Good' });
    const reviewId = mine.body.mine!.id;
    // Not published yet: no reply, not even from the person reviewed (who cannot see it).
    expect(await reply(b.driver.token, reviewId, { body: 'Thanks!' })).toMatchObject({
      status: 404,
      body: REVIEW_NOT_FOUND,
    });
    expect((await submit(b.driver.token, b.bookingId, { rating: 5 })).status).toBe(201);
    const stranger = await signUpAndIn();
    for (const [token, id] of [
      [b.requester.token, reviewId], // the author
      [stranger.token, reviewId],
      [b.driver.token, UNKNOWN],
      [b.driver.token, 'not-a-uuid'],
    ] as const)
      expect(await reply(token, id, { body: 'Thanks!' })).toMatchObject({ status: 404, body: REVIEW_NOT_FOUND });
    for (const [body, message] of [
      [{ body: 'x'.repeat(501) }, REPLY_MESSAGE],
      [{ body: '   ' }, REPLY_REQUIRED_MESSAGE],
      [{}, REPLY_REQUIRED_MESSAGE],
      [{ body: 5 }, REPLY_REQUIRED_MESSAGE],
      [[1], 'Please check your input'],
    ] as const)
      expect(await reply(b.driver.token, reviewId, body), JSON.stringify(body)).toMatchObject({
        status: 400,
        body: { code: 'validation_error', message },
      });
    expect((await call('POST', `/reviews/${reviewId}/reply`, { body: { body: 'Hi' } })).status).toBe(401);
    const [untouched] = await ctx.database.db.select().from(reviews).where(eq(reviews.id, reviewId));
    expect(untouched?.reply).toBeNull();

    const res = await reply(b.driver.token, reviewId, { body: `  ${'z'.repeat(500)}  ` });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: reviewId,
      rating: 4,
      comment: 'Good',
      reviewer: { id: b.requester.user.id },
      reviewee: { id: b.driver.user.id },
      published_at: expect.any(String),
      reply: { body: 'z'.repeat(500), created_at: expect.any(String) },
    });
    expect(await reply(b.driver.token, reviewId, { body: 'Another' })).toMatchObject({
      status: 409,
      body: refusal('already_replied'),
    });
    // Both people see it on the booking.
    expect((await readReviews(b.driver.token, b.bookingId)).body.theirs?.reply?.body).toBe('z'.repeat(500));
    expect((await readReviews(b.requester.token, b.bookingId)).body.mine?.reply?.body).toBe('z'.repeat(500));
  });

  it('two replies at once: one wins, the other is 409', async () => {
    const { ofDriver, driver } = await publishedPair();
    const answers = await Promise.all([
      reply(driver.token, ofDriver.id, { body: 'One' }),
      reply(driver.token, ofDriver.id, { body: 'Two' }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
  });
});

describe('reporting a review', () => {
  const reportReview = (token: string, reviewId: string, about: string) =>
    call<{ id: string }>('POST', '/reports', {
      cookie: token,
      body: { reported_user_id: about, review_id: reviewId, reason: 'other', details: 'Not true.' },
    });

  it('files a report about a published review by its author; the admin list shows the review', async () => {
    const { driver, requester, ofDriver } = await publishedPair();
    const res = await reportReview(driver.token, ofDriver.id, requester.user.id);
    expect(res.status).toBe(201);
    const [row] = await ctx.database.db.select().from(reports).where(eq(reports.id, res.body.id));
    expect(row).toMatchObject({ reviewId: ofDriver.id, reportedId: requester.user.id, reporterId: driver.user.id });
    // Anyone signed in may report a published review (it is public on the profile).
    const reader = await signUpAndIn();
    expect((await reportReview(reader.token, ofDriver.id, requester.user.id)).status).toBe(201);

    const list = await call<PageBody<AdminReport>>('GET', '/admin/reports?limit=50', { cookie: admin.token });
    const shown = list.body.items.find((r) => r.id === res.body.id);
    expect(shown).toMatchObject({
      reporter: { id: driver.user.id },
      reported: { id: requester.user.id },
      booking: null,
      review: { id: ofDriver.id, rating: 4, comment: 'Careful driver' },
    });
  });

  it('404 for my own review, an unpublished one, one by someone else than named, or an unknown one', async () => {
    const { driver, requester, ofDriver, ofRequester } = await publishedPair();
    const hidden = await completed();
    const unpublished = (await submit(hidden.driver.token, hidden.bookingId, { rating: 3 })).body.mine!;
    const cases: [Account, string, string][] = [
      [requester, ofDriver.id, driver.user.id], // my own review, naming the person it is about
      [requester, ofDriver.id, requester.user.id], // my own review, naming myself
      [hidden.requester, unpublished.id, hidden.driver.user.id], // not published: not even its reviewee may
      [requester, ofRequester.id, requester.user.id], // about me, but its author is someone else than named
      [driver, UNKNOWN, requester.user.id],
    ];
    for (const [who, reviewId, about] of cases)
      expect(await reportReview(who.token, reviewId, about)).toMatchObject({ status: 404, body: REVIEW_NOT_FOUND });
    expect(await reportReview(driver.token, 'nope', requester.user.id)).toMatchObject({ status: 400 });
    const stored = await ctx.database.db
      .select()
      .from(reports)
      .where(inArray(reports.reviewId, [ofDriver.id, ofRequester.id, unpublished.id]));
    expect(stored).toEqual([]);
  });
});
