import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { DeliveryRequest, Ride } from '../../shared/marketplace';
import type { ConversationSummary } from '../../shared/messages';
import { VERIFIED_FILTER_MESSAGE } from '../../shared/places';
import type { Profile, Review } from '../../shared/reviews';
import { profiles } from '../db/schema';
import { setupTestApp } from '../test/harness';
import { setPlan } from '../test/plans';
import { lifecycleHelpers } from '../test/lifecycle';
import { rideBody, type PageBody } from '../test/marketplace';

// The 'Verified' badge (issue 37) wherever a name is shown to someone deciding whom to trust, and Browse's
// 'Verified members only'; Community's 'Ambassador' badge (issue 38) beside it in the same places. The checks and the
// plan moves have their own tests; here a person's three states and plan are set directly.
const { ctx, call, signUpAndIn } = setupTestApp({ AUTH_PER_IP_MAX: '100000' });
const { act, confirmed, booking, request, postRequest } = lifecycleHelpers(call, signUpAndIn);

const db = () => ctx.database.db;
async function setChecks(userId: string, checks: { email?: boolean; phone?: boolean; id?: boolean }) {
  const now = new Date();
  await db()
    .update(profiles)
    .set({
      emailVerifiedAt: checks.email ? now : null,
      phone: checks.phone ? `+1555${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}` : null,
      phoneVerifiedAt: checks.phone ? now : null,
      idCheckedAt: checks.id ? now : null,
    })
    .where(eq(profiles.userId, userId));
}
const ALL = { email: true, phone: true, id: true };

const browse = async <T>(list: 'rides' | 'requests', token: string, query = '') => {
  const res = await call<PageBody<T>>('GET', `/${list}/browse?limit=50${query}`, { cookie: token });
  expect(res.status).toBe(200);
  return res.body.items;
};

describe("the 'Verified' badge and 'Verified members only'", () => {
  it('Browse cards carry the poster_verified / requester_verified flag; the filter keeps only theirs', async () => {
    const viewer = await signUpAndIn('Vic Viewer');
    const cara = await signUpAndIn('Cara Checked');
    const dev = await signUpAndIn('Dev Partly');
    await setChecks(cara.user.id, ALL);
    await setChecks(dev.user.id, { email: true, phone: true });
    const caraRide = (await call<Ride>('POST', '/rides', { cookie: cara.token, body: rideBody() })).body;
    const devRide = (await call<Ride>('POST', '/rides', { cookie: dev.token, body: rideBody() })).body;
    // A new listing's own answer shows its poster's badge too (the write's RETURNING).
    expect(caraRide.poster_verified).toBe(true);
    expect(devRide.poster_verified).toBe(false);
    const caraRequest = await postRequest(cara.token, 'Verified feed');
    const devRequest = await postRequest(dev.token, 'Unverified feed');
    expect(caraRequest.requester_verified).toBe(true);

    const rides = await browse<Ride>('rides', viewer.token);
    expect(rides.find((r) => r.id === caraRide.id)?.poster_verified).toBe(true);
    expect(rides.find((r) => r.id === devRide.id)?.poster_verified).toBe(false);
    const onlyRides = await browse<Ride>('rides', viewer.token, '&verified=1');
    expect(onlyRides.map((r) => r.id)).toContain(caraRide.id);
    expect(onlyRides.every((r) => r.poster_verified)).toBe(true);
    expect(onlyRides.map((r) => r.id)).not.toContain(devRide.id);

    const requests = await browse<DeliveryRequest>('requests', viewer.token);
    expect(requests.find((r) => r.id === devRequest.id)?.requester_verified).toBe(false);
    const onlyRequests = await browse<DeliveryRequest>('requests', viewer.token, '&verified=true&q=feed');
    expect(onlyRequests.map((r) => r.id)).toEqual([caraRequest.id]);

    // The cached first page follows a check that goes away (the list version moves with the profile's columns).
    await setChecks(cara.user.id, { email: true, phone: true });
    expect((await browse<Ride>('rides', viewer.token)).find((r) => r.id === caraRide.id)?.poster_verified).toBe(false);
    expect((await browse<Ride>('rides', viewer.token, '&verified=1')).map((r) => r.id)).not.toContain(caraRide.id);
  });

  it('refuses a malformed filter with 400 and its message', async () => {
    const viewer = await signUpAndIn('Val Bad');
    const res = await call('GET', '/rides/browse?verified=maybe', { cookie: viewer.token });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message: VERIFIED_FILTER_MESSAGE });
  });

  it('the profile lists the three checks; offers, the booking page, conversations and reviews carry the badge', async () => {
    const c = await confirmed(1, 'Pharmacy pickup');
    await setChecks(c.driver.user.id, ALL);
    await setChecks(c.requester.user.id, { email: true });

    const driverProfile = await call<Profile>('GET', `/users/${c.driver.user.id}`, { cookie: c.requester.token });
    expect(driverProfile.body).toMatchObject({ verification: { email: true, phone: true, id: true }, verified: true });
    const requesterProfile = await call<Profile>('GET', `/users/${c.requester.user.id}`, { cookie: c.driver.token });
    expect(requesterProfile.body).toMatchObject({
      verification: { email: true, phone: false, id: false },
      verified: false,
    });
    // The phone number itself is never part of anyone's profile.
    expect(JSON.stringify(driverProfile.body)).not.toMatch(/\+1555/);

    const detail = (await booking(c.requester.token, c.bookingId)).body;
    expect(detail.driver).toMatchObject({ id: c.driver.user.id, verified: true });
    expect(detail.requester).toMatchObject({ id: c.requester.user.id, verified: false });
    const chosen = (await request(c.requester.token, c.request.id)).body;
    expect(chosen.booking?.driver.verified).toBe(true);

    const conversations = await call<PageBody<ConversationSummary>>('GET', '/messages/conversations', {
      cookie: c.requester.token,
    });
    expect(conversations.body.items.find((i) => i.booking_id === c.bookingId)?.other.verified).toBe(true);

    // A pending offer shows the driver's badge to the requester choosing.
    const other = await signUpAndIn('Olive Offer');
    await setChecks(other.user.id, ALL);
    const open = await postRequest(c.requester.token, 'Feed sacks');
    expect((await call('POST', '/bookings', { cookie: other.token, body: { request_id: open.id } })).status).toBe(201);
    const offers = (await request(c.requester.token, open.id)).body.offers;
    expect(offers.map((o) => [o.driver.id, o.driver.verified])).toEqual([[other.user.id, true]]);

    // Reviews: the reviewer's badge beside their name.
    expect((await act(c.requester.token, c.bookingId, 'receive')).status).toBe(200);
    const reviewed = await call('POST', `/bookings/${c.bookingId}/review`, {
      cookie: c.driver.token,
      body: { rating: 5, comment: 'Kind and on time' },
    });
    expect(reviewed.status).toBe(201);
    const mine = await call<{ mine: { reviewer: { verified: boolean } } }>('GET', `/bookings/${c.bookingId}/review`, {
      cookie: c.driver.token,
    });
    expect(mine.body.mine.reviewer.verified).toBe(true);
  });
});

describe("Community's 'Ambassador' badge beside the name (issue 38)", () => {
  it('Browse cards and a new listing carry poster_ambassador / requester_ambassador for Community only, and follow a plan change', async () => {
    const viewer = await signUpAndIn('Vic Viewer');
    const free = await signUpAndIn('Fay Free');
    const plus = await signUpAndIn('Pat Plus');
    const member = await signUpAndIn('Cam Community');
    await setPlan(db(), plus.user.id, 'plus');
    await setPlan(db(), member.user.id, 'community');
    const posted = async (person: { token: string }) => ({
      ride: (await call<Ride>('POST', '/rides', { cookie: person.token, body: rideBody() })).body,
      request: await postRequest(person.token, 'Ambassador feed'),
    });
    const [f, p, m] = [await posted(free), await posted(plus), await posted(member)];
    // A new listing's own answer (the write's RETURNING) shows it too.
    expect([f, p, m].map((x) => [x.ride.poster_ambassador, x.request.requester_ambassador])).toEqual([
      [false, false],
      [false, false],
      [true, true],
    ]);

    const flags = async (rideQuery = '', requestQuery = '') => {
      const rides = await browse<Ride>('rides', viewer.token, rideQuery);
      const requests = await browse<DeliveryRequest>('requests', viewer.token, requestQuery);
      return [f, p, m].map((x) => [
        rides.find((r) => r.id === x.ride.id)?.poster_ambassador,
        requests.find((r) => r.id === x.request.id)?.requester_ambassador,
      ]);
    };
    // The cached first page (no filters) and a filtered one.
    const expected = [
      [false, false],
      [false, false],
      [true, true],
    ];
    expect(await flags()).toEqual(expected);
    expect(await flags('&from=2000-01-01', '&q=ambassador')).toEqual(expected);
    // One ride on its own, as Browse shows it to someone else.
    const one = await call<Ride>('GET', `/rides/${m.ride.id}`, { cookie: viewer.token });
    expect(one.body.poster_ambassador).toBe(true);

    // Plus -> Community and Community -> Free: the cached page follows (the plan column moves the list version),
    // though neither move changes a listing's priority.
    await setPlan(db(), plus.user.id, 'community');
    await setPlan(db(), member.user.id, null);
    expect(await flags()).toEqual([
      [false, false],
      [true, true],
      [false, false],
    ]);
  });

  it('offers, the booking page, the chosen booking, conversations and reviews carry it for Community only', async () => {
    const c = await confirmed(1, 'Ambassador pickup');
    await setPlan(db(), c.driver.user.id, 'community');
    await setPlan(db(), c.requester.user.id, 'plus');

    const detail = (await booking(c.requester.token, c.bookingId)).body;
    expect(detail.driver).toMatchObject({ id: c.driver.user.id, ambassador: true });
    expect(detail.requester).toMatchObject({ id: c.requester.user.id, ambassador: false });
    expect((await request(c.requester.token, c.request.id)).body.booking?.driver.ambassador).toBe(true);

    const otherOf = async (token: string) =>
      (await call<PageBody<ConversationSummary>>('GET', '/messages/conversations', { cookie: token })).body.items.find(
        (i) => i.booking_id === c.bookingId,
      )?.other;
    expect(await otherOf(c.requester.token)).toMatchObject({ id: c.driver.user.id, ambassador: true });
    expect(await otherOf(c.driver.token)).toMatchObject({ id: c.requester.user.id, ambassador: false });

    // Pending offers: a Community driver's and a Free driver's.
    const member = await signUpAndIn('Cam Offer');
    const free = await signUpAndIn('Fay Offer');
    await setPlan(db(), member.user.id, 'community');
    const open = await postRequest(c.requester.token, 'Feed sacks');
    for (const d of [member, free])
      expect((await call('POST', '/bookings', { cookie: d.token, body: { request_id: open.id } })).status).toBe(201);
    const offers = (await request(c.requester.token, open.id)).body.offers;
    expect(offers.map((o) => [o.driver.id, o.driver.ambassador])).toEqual([
      [member.user.id, true],
      [free.user.id, false],
    ]);

    // Reviews: the reviewer's badge beside their name, on the booking and on the profile's list.
    expect((await act(c.requester.token, c.bookingId, 'receive')).status).toBe(200);
    for (const [token, comment] of [
      [c.driver.token, 'Kind and on time'],
      [c.requester.token, 'Careful with the sacks'],
    ] as const) {
      const res = await call('POST', `/bookings/${c.bookingId}/review`, {
        cookie: token,
        body: { rating: 5, comment },
      });
      expect(res.status).toBe(201);
    }
    const reviewsOf = async (token: string) =>
      (
        await call<{ mine: Review | null; theirs: Review | null }>('GET', `/bookings/${c.bookingId}/review`, {
          cookie: token,
        })
      ).body;
    const requesterView = await reviewsOf(c.requester.token);
    expect(requesterView.mine?.reviewer.ambassador).toBe(false);
    expect(requesterView.theirs?.reviewer).toMatchObject({ id: c.driver.user.id, ambassador: true });
    const listed = async (userId: string) =>
      (await call<PageBody<Review>>('GET', `/users/${userId}/reviews`, { cookie: c.driver.token })).body.items;
    expect((await listed(c.requester.user.id)).map((r) => r.reviewer.ambassador)).toEqual([true]);
    expect((await listed(c.driver.user.id)).map((r) => r.reviewer.ambassador)).toEqual([false]);
  });
});
