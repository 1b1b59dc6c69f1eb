import { and, inArray, isNotNull } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { Db } from '../db/client';
import { profiles, reviews } from '../db/schema';
import { setupTwoInstances, type CallOptions, type CallResult } from '../test/harness';
import { lifecycleHelpers } from '../test/lifecycle';
import { createReviewSweep } from './index';

const realPostgres = Boolean(process.env.DATABASE_URL);
const SKIP_REASON = '(skipped without DATABASE_URL: PGlite has one connection, so no race)';
const DAY = 24 * 3_600_000;

type Caller = <T = unknown>(method: string, path: string, opts?: CallOptions) => Promise<CallResult<T>>;
type Account = { token: string; user: { id: string } };

/** Each person's published reviews and stars, counted from the reviews themselves. */
async function expectedRatings(db: Db, userIds: string[]) {
  const rows = await db
    .select({ revieweeId: reviews.revieweeId, rating: reviews.rating })
    .from(reviews)
    .where(and(inArray(reviews.revieweeId, userIds), isNotNull(reviews.publishedAt)));
  const out = new Map(userIds.map((id) => [id, { count: 0, sum: 0 }]));
  for (const r of rows) {
    const acc = out.get(r.revieweeId)!;
    acc.count += 1;
    acc.sum += r.rating;
  }
  return Object.fromEntries(out);
}

/** Every review of these bookings, published or not. */
const reviewsOf = (db: Db, bookings: { bookingId: string }[]) =>
  db
    .select()
    .from(reviews)
    .where(
      inArray(
        reviews.bookingId,
        bookings.map((bk) => bk.bookingId),
      ),
    );

async function storedRatings(db: Db, userIds: string[]) {
  const rows = await db
    .select({ userId: profiles.userId, count: profiles.ratingCount, sum: profiles.ratingSum })
    .from(profiles)
    .where(inArray(profiles.userId, userIds));
  return Object.fromEntries(rows.map((r) => [r.userId, { count: r.count, sum: r.sum }]));
}

/**
 * Races need real connections: PGlite has a single one. Two app instances on one PostgreSQL, as behind a load
 * balancer. Run with `bash scripts/with-postgres.sh npx vitest run src/server/reviews`.
 */
describe.skipIf(!realPostgres)(`reviews on two instances of real PostgreSQL ${SKIP_REASON}`, () => {
  // Instance a's clock runs `shiftA` ahead, b's `shiftB`: the same by default, apart to mimic skewed machines.
  let shiftA = 0;
  let shiftB = 0;
  afterEach(() => {
    shiftA = 0;
    shiftB = 0;
  });
  const clockA = () => new Date(Date.now() + shiftA);
  const clockB = () => new Date(Date.now() + shiftB);
  const { ctx, a, b, signUpAndIn } = setupTwoInstances({ AUTH_PER_IP_MAX: '100000' }, { clock: [clockA, clockB] });
  const { act, offer, postRequest } = lifecycleHelpers(a, signUpAndIn);
  const db = () => ctx.databases[0].db;

  /**
   * `n` completed bookings among a few people who take part in many of them, in both roles: every publication
   * touches profile rows that others are updating at the same moment.
   */
  async function completedBookings(n: number) {
    const people: Account[] = [];
    for (let i = 0; i < 5; i++) people.push(await signUpAndIn(`Neighbour ${i}`));
    const list = [];
    for (let i = 0; i < n; i++) {
      const requester = people[i % 5]!;
      const driver = people[(i + 1 + (i % 4)) % 5]!;
      const request = await postRequest(requester.token, `Race ${i}`);
      const booking = await offer(driver.token, request.id);
      expect((await act(requester.token, booking.id, 'choose')).status).toBe(200);
      expect((await act(requester.token, booking.id, 'receive')).status).toBe(200);
      list.push({ bookingId: booking.id, requester, driver });
    }
    return { people, bookings: list };
  }

  const submit = (call: Caller, token: string, bookingId: string, rating: number) =>
    call('POST', `/bookings/${bookingId}/review`, { cookie: token, body: { rating, comment: `${rating} stars` } });

  it('both people submit at the same moment on different instances: both published once, together, counted once', async () => {
    const { people, bookings } = await completedBookings(20);
    const ids = people.map((p) => p.user.id);
    expect(Object.values(await storedRatings(db(), ids))).toEqual(Array(5).fill({ count: 0, sum: 0 }));

    // All 40 submissions at once: the requester's through instance a, the driver's through b (and the other way
    // round for odd bookings).
    const answers = await Promise.all(
      bookings.flatMap((bk, i) => [
        submit(i % 2 ? b : a, bk.requester.token, bk.bookingId, 1 + (i % 5)),
        submit(i % 2 ? a : b, bk.driver.token, bk.bookingId, 5 - (i % 3)),
      ]),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(40).fill(201));

    const rows = await reviewsOf(db(), bookings);
    expect(rows).toHaveLength(40);
    for (const [i, bk] of bookings.entries()) {
      const pair = rows.filter((r) => r.bookingId === bk.bookingId);
      expect(pair).toHaveLength(2);
      // Whichever came second published both, at one instant.
      expect(pair[0]!.publishedAt).toBeInstanceOf(Date);
      expect(pair[1]!.publishedAt?.getTime()).toBe(pair[0]!.publishedAt!.getTime());
      const byRequester = pair.find((r) => r.reviewerId === bk.requester.user.id);
      expect(byRequester?.rating).toBe(1 + (i % 5));
      // Each person sees the other's review through either instance.
      const seen = await b<{ theirs: { rating: number } | null }>('GET', `/bookings/${bk.bookingId}/review`, {
        cookie: bk.driver.token,
      });
      expect(seen.body.theirs?.rating).toBe(1 + (i % 5));
    }
    // The counters are exactly the sum of the published ratings: nothing counted twice, nothing lost.
    const expected = await expectedRatings(db(), ids);
    expect(Object.values(expected).reduce((n, r) => n + r.count, 0)).toBe(40);
    expect(await storedRatings(db(), ids)).toEqual(expected);
    // And a sweep long after finds nothing more to publish.
    shiftA = shiftB = 15 * DAY;
    expect(await ctx.apps[0].reviews.publishDue()).toBe(0);
    expect(await storedRatings(db(), ids)).toEqual(expected);
  });

  it('the sweep on both instances at once (and more sweepers) publishes each lone review exactly once', async () => {
    const { people, bookings } = await completedBookings(30);
    const ids = people.map((p) => p.user.id);
    // One of the two people reviewed each booking; a few bookings got both (published already).
    for (const [i, bk] of bookings.entries()) {
      const who = i % 2 ? bk.driver : bk.requester;
      expect((await submit(i % 2 ? a : b, who.token, bk.bookingId, 1 + (i % 5))).status).toBe(201);
      if (i % 10 === 0)
        expect((await submit(a, (i % 2 ? bk.requester : bk.driver).token, bk.bookingId, 3)).status).toBe(201);
    }
    const before = await storedRatings(db(), ids);

    shiftA = shiftB = 14 * DAY + 60_000;
    // Small batches on the extra sweepers, so they interleave with the instances' runs batch by batch.
    const extra = [0, 1].flatMap((k) => [
      createReviewSweep(ctx.databases[k as 0 | 1].db, clockA, 3),
      createReviewSweep(ctx.databases[k as 0 | 1].db, clockA, 7),
    ]);
    const counts = await Promise.all([
      ctx.apps[0].reviews.publishDue(),
      ctx.apps[1].reviews.publishDue(),
      ...extra.map((s) => s.publishDue()),
    ]);
    // 30 lone reviews, 27 of them never published before: each published by exactly one sweeper.
    expect(counts.reduce((n, c) => n + c, 0)).toBe(27);

    const rows = await reviewsOf(db(), bookings);
    expect(rows).toHaveLength(33);
    expect(rows.every((r) => r.publishedAt !== null)).toBe(true);
    const expected = await expectedRatings(db(), ids);
    expect(await storedRatings(db(), ids)).toEqual(expected);
    const added = Object.values(expected).reduce((n, r) => n + r.count, 0);
    const had = Object.values(before).reduce((n, r) => n + r.count, 0);
    expect(added - had).toBe(27);
    expect(await Promise.all([ctx.apps[0].reviews.publishDue(), ctx.apps[1].reviews.publishDue()])).toEqual([0, 0]);
  });

  it('a submission racing a sweep on a machine whose clock is ahead: every review published and counted once', async () => {
    const { people, bookings } = await completedBookings(20);
    const ids = people.map((p) => p.user.id);
    for (const bk of bookings) expect((await submit(a, bk.driver.token, bk.bookingId, 2)).status).toBe(201);
    // Instance a believes the period is over and sweeps; instance b still takes the requesters' reviews.
    shiftA = 14 * DAY + 60_000;
    const [swept, ...answers] = await Promise.all([
      ctx.apps[0].reviews.publishDue(),
      ...bookings.map((bk) => submit(b, bk.requester.token, bk.bookingId, 5)),
    ]);
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(201));
    expect(swept).toBeLessThanOrEqual(20);
    const rows = await reviewsOf(db(), bookings);
    expect(rows).toHaveLength(40);
    expect(rows.every((r) => r.publishedAt !== null)).toBe(true);
    expect(await storedRatings(db(), ids)).toEqual(await expectedRatings(db(), ids));
    expect(Object.values(await storedRatings(db(), ids)).reduce((n, r) => n + r.count, 0)).toBe(40);
  });
});
