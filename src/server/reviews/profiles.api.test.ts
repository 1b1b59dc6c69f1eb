import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { INVALID_CURSOR_MESSAGE } from '../../shared/marketplace';
import type { Profile, Review } from '../../shared/reviews';
import { profiles, users } from '../db/schema';
import { setupTestApp } from '../test/harness';
import { lifecycleHelpers } from '../test/lifecycle';
import { collectPages, type PageBody } from '../test/marketplace';
import { completeDelivery, seedReview } from '../test/reviews';

const { ctx, call, signUpAndIn } = setupTestApp({ AUTH_PER_IP_MAX: '100000' });
const life = lifecycleHelpers(call, signUpAndIn);

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const NOT_FOUND = { code: 'not_found', message: 'User not found.' };

const profileOf = (token: string, id: string) => call<Profile>('GET', `/users/${id}`, { cookie: token });
const reviewsOf = (token: string, id: string, query = '') =>
  call<PageBody<Review>>('GET', `/users/${id}/reviews${query}`, { cookie: token });

/** Every published review of the person, following the cursors `limit` at a time. */
const allReviews = (token: string, id: string, limit: number) =>
  collectPages((cursor) => reviewsOf(token, id, `?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`));

const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000);

describe('GET /users/:id', () => {
  it("shows a new member: name, member since the account's creation, no deliveries, no rating", async () => {
    const viewer = await signUpAndIn('Vera Viewer');
    const fresh = await signUpAndIn('Nina Newcomer');
    const res = await profileOf(viewer.token, fresh.user.id);
    expect(res.status).toBe(200);
    const [account] = await ctx.database.db.select().from(users).where(eq(users.id, fresh.user.id));
    expect(res.body).toEqual({
      id: fresh.user.id,
      full_name: 'Nina Newcomer',
      about: null,
      member_since: account!.createdAt.toISOString(),
      deliveries_made: 0,
      requests_delivered: 0,
      rating: { count: 0, average: null },
      // Nothing checked yet (issue 37): no badge.
      verification: { email: false, phone: false, id: false },
      verified: false,
      ambassador: false,
    });
    // Anyone signed in sees the same, the person included.
    expect((await profileOf(fresh.token, fresh.user.id)).body).toEqual(res.body);
    expect((await reviewsOf(viewer.token, fresh.user.id)).body).toEqual({ items: [], next_cursor: null });
  });

  it('counts completed deliveries in each role, and nothing that did not complete', async () => {
    const pat = await signUpAndIn('Pat Both');
    const ann = await signUpAndIn('Ann');
    const bob = await signUpAndIn('Bob');
    // Pat drives two deliveries to completion and receives one.
    await completeDelivery(life, ann, pat);
    await completeDelivery(life, bob, pat);
    await completeDelivery(life, pat, ann);
    // Neither a pending offer, a confirmed booking nor a cancelled one counts.
    await life.offer(pat.token, (await life.postRequest(ann.token, 'Pending')).id);
    const confirmedReq = await life.postRequest(bob.token, 'Confirmed');
    const confirmedOffer = await life.offer(pat.token, confirmedReq.id);
    expect((await life.act(bob.token, confirmedOffer.id, 'choose')).status).toBe(200);
    const cancelledReq = await life.postRequest(pat.token, 'Cancelled');
    const cancelledOffer = await life.offer(bob.token, cancelledReq.id);
    expect((await life.act(pat.token, cancelledOffer.id, 'choose')).status).toBe(200);
    expect((await life.act(bob.token, cancelledOffer.id, 'cancel', { reason: 'plans_changed' })).status).toBe(200);

    const res = await profileOf(bob.token, pat.user.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ full_name: 'Pat Both', deliveries_made: 2, requests_delivered: 1 });
    expect((await profileOf(pat.token, ann.user.id)).body).toMatchObject({ deliveries_made: 1, requests_delivered: 1 });
    expect((await profileOf(pat.token, bob.user.id)).body).toMatchObject({ deliveries_made: 0, requests_delivered: 1 });
  });

  it('shows the average to one decimal with the count, from published reviews only', async () => {
    const driver = await signUpAndIn('Dee Driver');
    const viewer = await signUpAndIn();
    const ratings = [5, 5, 4];
    for (const rating of ratings) {
      const requester = await signUpAndIn();
      const booking = await completeDelivery(life, requester, driver);
      await seedReview(ctx.database.db, booking, { by: 'requester', rating });
    }
    // Still waiting for the other person: not counted, not shown.
    const waiting = await completeDelivery(life, await signUpAndIn(), driver);
    await seedReview(ctx.database.db, waiting, { by: 'requester', rating: 1, publishedAt: null });

    const res = await profileOf(viewer.token, driver.user.id);
    expect(res.body.rating).toEqual({ count: 3, average: 4.7 });
    expect(res.body.deliveries_made).toBe(4);
    // A single 4 is 4 (not 4.0 as text: the client formats); 4 and 5 round half up to 4.5.
    const one = await signUpAndIn();
    await seedReview(ctx.database.db, await completeDelivery(life, one, await signUpAndIn()), {
      by: 'driver',
      rating: 4,
    });
    expect((await profileOf(viewer.token, one.user.id)).body.rating).toEqual({ count: 1, average: 4 });
  });

  it('reads the rating from the counters on the profile row, not by counting reviews', async () => {
    const person = await signUpAndIn();
    const viewer = await signUpAndIn();
    // 12 reviews summing to 58: 4.83 -> 4.8.
    await ctx.database.db
      .update(profiles)
      .set({ ratingCount: 12, ratingSum: 58 })
      .where(eq(profiles.userId, person.user.id));
    expect((await profileOf(viewer.token, person.user.id)).body.rating).toEqual({ count: 12, average: 4.8 });
  });

  it('answers 404 for an unknown id, an id that is not a uuid, and a suspended account', async () => {
    const viewer = await signUpAndIn();
    const gone = await signUpAndIn('Sam Suspended');
    expect((await profileOf(viewer.token, gone.user.id)).status).toBe(200);
    await ctx.database.db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, gone.user.id));
    for (const id of [UNKNOWN, 'not-a-uuid', '123', gone.user.id]) {
      const profile = await profileOf(viewer.token, id);
      expect({ id, status: profile.status, body: profile.body }).toEqual({ id, status: 404, body: NOT_FOUND });
      const list = await reviewsOf(viewer.token, id);
      expect({ id, status: list.status, body: list.body }).toEqual({ id, status: 404, body: NOT_FOUND });
    }
  });

  it('needs a session: a stranger without one gets 401', async () => {
    const person = await signUpAndIn();
    for (const path of [`/users/${person.user.id}`, `/users/${person.user.id}/reviews`, `/users/${UNKNOWN}`]) {
      const res = await call('GET', path);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ code: 'unauthenticated', message: 'Please sign in to continue.' });
    }
    expect((await call('GET', `/users/${person.user.id}`, { cookie: 'not-a-session' })).status).toBe(401);
  });
});

describe('GET /users/:id/reviews', () => {
  it('lists published reviews of the person, newest first, across pages, with names, role and reply', async () => {
    const dee = await signUpAndIn('Dee Driver');
    const viewer = await signUpAndIn('Vic Viewer');
    const requesters = [];
    for (let i = 1; i <= 4; i++) requesters.push(await signUpAndIn(`Requester ${i}`));
    const trips = [];
    for (const r of requesters) trips.push(await completeDelivery(life, r, dee));
    // Dee also received a delivery: that driver's review of Dee is listed too, with role 'driver'.
    const carrier = await signUpAndIn('Cal Carrier');
    const received = await completeDelivery(life, dee, carrier);

    const db = ctx.database.db;
    const tied = minutesAgo(30);
    const seeded = [
      await seedReview(db, trips[0]!, { by: 'requester', rating: 5, comment: 'Oldest', publishedAt: minutesAgo(50) }),
      await seedReview(db, trips[1]!, { by: 'requester', rating: 4, comment: null, publishedAt: minutesAgo(40) }),
      // Two published at the same instant (as one booking's pair is): ordered by id, none lost at a page edge.
      await seedReview(db, trips[2]!, { by: 'requester', rating: 3, publishedAt: tied }),
      await seedReview(db, trips[3]!, { by: 'requester', rating: 2, publishedAt: tied }),
      await seedReview(db, received, {
        by: 'driver',
        rating: 5,
        comment: 'Ready at the gate',
        publishedAt: minutesAgo(10),
        reply: 'Thanks!',
      }),
    ];
    // Not listed: Dee's own review of someone (Dee is the reviewer), and one still unpublished.
    await seedReview(db, received, { by: 'requester', rating: 4, publishedAt: minutesAgo(10) });
    const hidden = await completeDelivery(life, await signUpAndIn(), dee);
    await seedReview(db, hidden, { by: 'requester', rating: 1, comment: 'Secret', publishedAt: null });

    const expected = [...seeded]
      .sort((a, b) => b.publishedAt!.getTime() - a.publishedAt!.getTime() || (a.id < b.id ? 1 : -1))
      .map((r) => r.id);
    for (const limit of [1, 2, 3, 20]) {
      const { items, pages } = await allReviews(viewer.token, dee.user.id, limit);
      expect(items.map((r) => r.id)).toEqual(expected);
      expect(pages).toBe(Math.max(1, Math.ceil(expected.length / limit)));
    }

    const first = await reviewsOf(viewer.token, dee.user.id, '?limit=2');
    expect(first.status).toBe(200);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const newest = seeded[4]!;
    expect(first.body.items[0]).toEqual({
      id: newest.id,
      booking_id: received.bookingId,
      rating: 5,
      comment: 'Ready at the gate',
      reviewer: { id: carrier.user.id, full_name: 'Cal Carrier', verified: false, ambassador: false },
      reviewer_role: 'driver',
      reviewee: { id: dee.user.id, full_name: 'Dee Driver' },
      created_at: newest.createdAt.toISOString(),
      published_at: newest.publishedAt!.toISOString(),
      reply: { body: 'Thanks!', created_at: newest.repliedAt!.toISOString() },
    });
    const { items } = await allReviews(viewer.token, dee.user.id, 50);
    expect(items.find((r) => r.comment === 'Oldest')).toMatchObject({
      reviewer: { full_name: 'Requester 1' },
      reviewer_role: 'requester',
      reply: null,
    });
    expect(items.every((r) => r.reviewee.id === dee.user.id && r.published_at !== null)).toBe(true);
    expect(JSON.stringify(items)).not.toContain('Secret');
    expect((await profileOf(viewer.token, dee.user.id)).body.rating).toEqual({ count: 5, average: 3.8 });
  });

  it('never lists an unpublished review, even to its author or the person reviewed', async () => {
    const driver = await signUpAndIn();
    const requester = await signUpAndIn();
    const booking = await completeDelivery(life, requester, driver);
    await seedReview(ctx.database.db, booking, { by: 'requester', rating: 2, publishedAt: null });
    for (const token of [driver.token, requester.token]) {
      expect((await reviewsOf(token, driver.user.id)).body).toEqual({ items: [], next_cursor: null });
      expect((await profileOf(token, driver.user.id)).body.rating).toEqual({ count: 0, average: null });
    }
  });

  it('refuses a cursor it did not make and a bad limit with 400', async () => {
    const person = await signUpAndIn();
    const viewer = await signUpAndIn();
    const forged = [
      'not-a-cursor!',
      Buffer.from('["2026-01-01"]').toString('base64url'),
      Buffer.from('["2026-13-01T00:00:00.000Z","00000000-0000-4000-8000-000000000000"]').toString('base64url'),
      Buffer.from('["2026-01-01T00:00:00.000Z","nope"]').toString('base64url'),
      // A rides cursor (date, time, id) is not a reviews cursor.
      Buffer.from('["2026-01-01","08:00:00","00000000-0000-4000-8000-000000000000"]').toString('base64url'),
      'x'.repeat(201),
    ];
    for (const cursor of forged) {
      const res = await reviewsOf(viewer.token, person.user.id, `?cursor=${encodeURIComponent(cursor)}`);
      expect({ cursor, status: res.status, body: res.body }).toEqual({
        cursor,
        status: 400,
        body: { code: 'validation_error', message: INVALID_CURSOR_MESSAGE },
      });
    }
    for (const limit of ['0', '51', 'ten', '2.5']) {
      const res = await reviewsOf(viewer.token, person.user.id, `?limit=${limit}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: 'validation_error', message: 'Limit must be a whole number from 1 to 50' });
    }
    // A well-formed cursor past every review is simply an empty page.
    const past = Buffer.from('["1999-01-01T00:00:00.000Z","00000000-0000-4000-8000-000000000000"]').toString(
      'base64url',
    );
    expect((await reviewsOf(viewer.token, person.user.id, `?cursor=${past}`)).body).toEqual({
      items: [],
      next_cursor: null,
    });
  });
});
