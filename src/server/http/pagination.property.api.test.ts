import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { INVALID_CURSOR_MESSAGE } from '../../shared/marketplace';
import { bookings, deliveryRequests, places, reviews, rides } from '../db/schema';
import { setupTestApp } from '../test/harness';
import {
  anyLimit,
  forgedCursor,
  validAlongRouteCursor,
  validNewestFirstCursor,
  validRequestBrowseCursor,
  validRideBrowseCursor,
  validRideCursor,
} from '../test/cursors';

const { ctx, call, signUpAndIn } = setupTestApp();
const LIMIT_MESSAGE = 'Limit must be a whole number from 1 to 50';
/** The lists known today; the test also finds any list added later through the OpenAPI document. */
const KNOWN_LISTS = ['/rides/mine', '/rides/browse', '/requests/mine', '/requests/browse', '/bookings/mine'];

let token = '';
let lists: string[] = [];
let ownBookingId = '';
let ownUserId = '';
/** The user's ride with places: its along-route list. */
let ownRideId = '';

interface OpenApiDoc {
  paths: Record<string, { get?: { parameters?: { name: string; in: string }[] } }>;
}

beforeAll(async () => {
  const user = await signUpAndIn();
  token = user.token;
  // A few rows in every list, so that accepted cursors really run the "after the cursor" statements on data.
  await ctx.database.db.insert(places).values([
    { id: 999_001, name: 'Springfield', state: 'IL', zip: '62701', lat: 39.8, lon: -89.65 },
    { id: 999_002, name: 'Decatur', state: 'IL', zip: '62521', lat: 39.84, lon: -88.95 },
  ]);
  const rideRows = await ctx.database.db
    .insert(rides)
    .values(
      ['2099-01-01', '2099-01-02', '2099-01-03'].map((d, i) => ({
        userId: user.user.id,
        origin: `o${i}`,
        destination: 'd',
        departureDate: d,
        departureTime: i === 0 ? null : '08:00:00',
        ...(i === 0
          ? {
              originPlaceId: 999_001,
              originLat: 39.8,
              originLon: -89.65,
              destinationPlaceId: 999_002,
              destinationLat: 39.84,
              destinationLon: -88.95,
            }
          : {}),
      })),
    )
    .returning({ id: rides.id });
  ownRideId = rideRows[0]!.id;
  const requestRows = await ctx.database.db
    .insert(deliveryRequests)
    .values(
      [0, 1, 2].map((i) => ({
        userId: user.user.id,
        title: `t${i}`,
        description: 'd',
        pickupLocation: 'p',
        deliveryLocation: 'q',
      })),
    )
    .returning({ id: deliveryRequests.id });
  // The user drives for someone else (a driver never books their own request), and receives offers from them.
  const other = await signUpAndIn();
  const theirs = await ctx.database.db
    .insert(deliveryRequests)
    .values(
      [0, 1].map((i) => ({
        userId: other.user.id,
        title: `o${i}`,
        description: 'd',
        pickupLocation: 'p',
        deliveryLocation: 'q',
      })),
    )
    .returning({ id: deliveryRequests.id });
  const bookingRows = await ctx.database.db
    .insert(bookings)
    .values([
      ...theirs.map((r) => ({ requestId: r.id, driverId: user.user.id, requesterId: other.user.id })),
      ...requestRows.slice(0, 2).map((r) => ({ requestId: r.id, driverId: other.user.id, requesterId: user.user.id })),
    ])
    .returning({ id: bookings.id });
  // Lists inside one row (a booking's conversation) are read through one of the user's own bookings.
  ownBookingId = bookingRows[0]!.id;
  // A profile's reviews are read through the user's own: the other person's published reviews of them.
  ownUserId = user.user.id;
  await ctx.database.db.insert(reviews).values(
    [bookingRows[0]!, bookingRows[2]!].map((b, i) => ({
      bookingId: b.id,
      reviewerId: other.user.id,
      revieweeId: user.user.id,
      reviewerRole: i === 0 ? 'requester' : 'driver',
      rating: 4,
      publishedAt: new Date(),
    })),
  );

  // Every GET that takes a cursor is a list; the document's paths may or may not carry the /api prefix.
  const doc = await call<OpenApiDoc>('GET', '/openapi.json');
  lists = Object.entries(doc.body.paths)
    .filter(([, item]) => item.get?.parameters?.some((p) => p.in === 'query' && p.name === 'cursor'))
    .map(([path]) => path.replace(/^\/api(?=\/)/, ''));
  expect(lists).toEqual(expect.arrayContaining(KNOWN_LISTS));
});

function get(path: string, query: [string, string][]) {
  const concrete = path.replace(
    '{id}',
    path.startsWith('/users/') ? ownUserId : path.startsWith('/rides/') ? ownRideId : ownBookingId,
  );
  return call<unknown>('GET', `${concrete}?${new URLSearchParams(query)}`, { cookie: token });
}

function expectPage(res: { status: number; body: unknown }) {
  expect(res.status).toBe(200);
  // A conversation page adds its own fields (state, read mark) beside the page.
  expect(res.body).toMatchObject({
    items: expect.any(Array),
    next_cursor: expect.toBeOneOf([null, expect.any(String)]),
  });
}

const RUNS = { numRuns: 800 };

describe('every list under forged cursors and limits', () => {
  it('answers only a page (200) or the cursor or limit message (400), never anything else', async () => {
    const query = fc.oneof(
      fc.tuple(forgedCursor, fc.option(anyLimit, { nil: undefined })).map(([cursor, limit]) => {
        const q: [string, string][] = [['cursor', cursor]];
        if (limit !== undefined) q.push(['limit', limit]);
        return q;
      }),
      // Repeated parameters arrive as arrays, which the query schema must refuse with the same messages.
      fc.array(fc.oneof(forgedCursor.map((c) => ['cursor', c] as [string, string])), { minLength: 2, maxLength: 3 }),
      fc.array(
        anyLimit.map((l) => ['limit', l] as [string, string]),
        { minLength: 1, maxLength: 3 },
      ),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...lists), query, async (path, q) => {
        const res = await get(path, q);
        if (res.status === 200) return expectPage(res);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          code: 'validation_error',
          message: expect.toBeOneOf([INVALID_CURSOR_MESSAGE, LIMIT_MESSAGE]),
        });
      }),
      RUNS,
    );
  });

  it('answers a page for any well-formed cursor anywhere in the accepted range (PostgreSQL casts every part)', async () => {
    const alongRoute = (p: string) => p.endsWith('/along-route');
    // Browse orders by priority too (issue 38): its cursors have a shape of their own.
    const browse = (p: string) => p.endsWith('/browse');
    const rideLists = () => lists.filter((p) => p.startsWith('/rides/') && !alongRoute(p) && !browse(p));
    const otherLists = () => lists.filter((p) => !p.startsWith('/rides/') && !browse(p));
    const pick = fc.oneof(
      fc.tuple(fc.constantFrom(...rideLists()), validRideCursor),
      fc.tuple(fc.constantFrom(...otherLists()), validNewestFirstCursor),
      fc.tuple(fc.constantFrom(...lists.filter(alongRoute)), validAlongRouteCursor),
      fc.tuple(fc.constant('/rides/browse'), validRideBrowseCursor),
      fc.tuple(fc.constant('/requests/browse'), validRequestBrowseCursor),
    );
    await fc.assert(
      fc.asyncProperty(pick, fc.integer({ min: 1, max: 50 }), async ([path, cursor], limit) => {
        expectPage(
          await get(path, [
            ['cursor', cursor],
            ['limit', String(limit)],
          ]),
        );
      }),
      { numRuns: 200 },
    );
  });
});
