import { eq } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { DeliveryRequest, Ride } from '../../shared/marketplace';
import { encodeCursor } from '../db/cursor';
import { deliveryRequests, places, profiles, rides } from '../db/schema';
import { setupTestApp } from '../test/harness';
import { collectPages, requestBody, rideBody, type PageBody } from '../test/marketplace';
import { setPlan } from '../test/plans';

// Priority listing (issue 38): on Browse Rides within each day, on Browse Requests within each hour of posting, Plus
// and Community members' listings come first and carry `priority`; paging and filters keep working. Plans are set
// on profiles.plan directly, as every plan move leaves it (the moves have their own tests).
const { ctx, call, signUpAndIn } = setupTestApp({ AUTH_PER_IP_MAX: '100000' });
const db = () => ctx.database.db;

type Kind = 'rides' | 'requests';

/** The orders before priority listing (My Rides and My Requests keep them). */
const rideOrder = (a: Ride, b: Ride) =>
  a.departure_date.localeCompare(b.departure_date) ||
  (a.departure_time ?? '24:00').localeCompare(b.departure_time ?? '24:00') ||
  a.id.localeCompare(b.id);
const requestOrder = (a: DeliveryRequest, b: DeliveryRequest) =>
  b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id);
/** Browse Rides' order: day, priority first, time (untimed last), id. */
const rideBrowseOrder = (a: Ride, b: Ride) =>
  a.departure_date.localeCompare(b.departure_date) ||
  Number(b.priority) - Number(a.priority) ||
  (a.departure_time ?? '24:00').localeCompare(b.departure_time ?? '24:00') ||
  a.id.localeCompare(b.id);
/** Browse Requests' order: newest hour (UTC) first, priority first, then newest first, then id. */
const requestBrowseOrder = (a: DeliveryRequest, b: DeliveryRequest) =>
  b.created_at.slice(0, 13).localeCompare(a.created_at.slice(0, 13)) ||
  Number(b.priority) - Number(a.priority) ||
  b.created_at.localeCompare(a.created_at) ||
  b.id.localeCompare(a.id);

async function browse<T>(kind: Kind, token: string, query = '', limit = 50) {
  const res = await call<PageBody<T>>('GET', `/${kind}/browse?limit=${limit}${query}`, { cookie: token });
  expect(res.status).toBe(200);
  return res.body;
}

/** Inserted straight into the table, as a bulk load would: the trigger sets `priority` all the same. */
async function insertRide(userId: string, date: string, time: string | null, notes: string | null = null) {
  const [row] = await db()
    .insert(rides)
    .values({ userId, origin: 'Oak Farm', destination: 'Mill Market', departureDate: date, departureTime: time, notes })
    .returning({ id: rides.id, priority: rides.priority });
  return row!;
}
async function insertRequest(userId: string, at: string, title = 'Feed sacks', neededBy: string | null = null) {
  const [row] = await db()
    .insert(deliveryRequests)
    .values({
      userId,
      title,
      description: 'Two bags',
      pickupLocation: 'Co-op',
      deliveryLocation: 'Hill Farm',
      neededByDate: neededBy,
      createdAt: new Date(at),
    })
    .returning({ id: deliveryRequests.id, priority: deliveryRequests.priority });
  return row!;
}

/** The listings of `ids` in the order Browse gave them. */
const only = <T extends { id: string }>(items: T[], ids: string[]) => items.filter((i) => ids.includes(i.id));

async function people() {
  const [viewer, free, plus, community] = [
    await signUpAndIn('Vic Viewer'),
    await signUpAndIn('Fay Free'),
    await signUpAndIn('Pat Plus'),
    await signUpAndIn('Cam Community'),
  ];
  await setPlan(db(), plus.user.id, 'plus');
  await setPlan(db(), community.user.id, 'community');
  return { viewer, free, plus, community };
}

describe('Browse Rides: priority listing', () => {
  it("lists Plus and Community drivers' rides first within their day, never ahead of an earlier day", async () => {
    const { viewer, free, plus, community } = await people();
    // A new ride's own answer says it is a priority listing (the insert trigger, read back by RETURNING).
    const posted = await call<Ride>('POST', '/rides', { cookie: plus.token, body: rideBody() });
    expect(posted.status).toBe(201);
    expect(posted.body.priority).toBe(true);
    const freePosted = await call<Ride>('POST', '/rides', { cookie: free.token, body: rideBody() });
    expect(freePosted.body.priority).toBe(false);

    const earlierDay = await insertRide(free.user.id, '2099-07-01', '23:00');
    const freeEarly = await insertRide(free.user.id, '2099-07-02', '07:00');
    const freeNight = await insertRide(free.user.id, '2099-07-02', '21:00');
    const plusLate = await insertRide(plus.user.id, '2099-07-02', '18:00');
    const communityUntimed = await insertRide(community.user.id, '2099-07-02', null);
    const plusNextDay = await insertRide(plus.user.id, '2099-07-03', '06:00');
    expect([earlierDay, freeEarly, plusLate, communityUntimed].map((r) => r.priority)).toEqual([
      false,
      false,
      true,
      true,
    ]);
    const ids = [earlierDay, freeEarly, freeNight, plusLate, communityUntimed, plusNextDay].map((r) => r.id);

    const page = await browse<Ride>('rides', viewer.token);
    expect(only(page.items, ids).map((r) => r.id)).toEqual([
      earlierDay.id,
      plusLate.id,
      communityUntimed.id,
      freeEarly.id,
      freeNight.id,
      plusNextDay.id,
    ]);
    expect(only(page.items, ids).map((r) => r.priority)).toEqual([false, true, true, false, false, true]);
    expect(page.items.map((r) => r.id)).toEqual([...page.items].sort(rideBrowseOrder).map((r) => r.id));

    // My Rides keep their departure order (one driver's rides share a plan anyway) and carry the flag.
    const mine = await call<PageBody<Ride>>('GET', '/rides/mine', { cookie: plus.token });
    expect(mine.body.items.every((r) => r.priority)).toBe(true);

    // The plan ends: the cached first page is not served again, the order and the flag are the plain ones.
    await setPlan(db(), plus.user.id, null);
    const after = only((await browse<Ride>('rides', viewer.token)).items, ids);
    expect(after.map((r) => r.id)).toEqual([
      earlierDay.id,
      communityUntimed.id,
      freeEarly.id,
      plusLate.id,
      freeNight.id,
      plusNextDay.id,
    ]);
    expect(after.find((r) => r.id === plusLate.id)?.priority).toBe(false);

    // A plan taken later lifts the rides posted on Free; a switch between paid plans keeps them first.
    await setPlan(db(), free.user.id, 'plus');
    await setPlan(db(), free.user.id, 'community');
    const lifted = only((await browse<Ride>('rides', viewer.token)).items, ids);
    expect(lifted.map((r) => r.id)).toEqual([
      earlierDay.id,
      freeEarly.id,
      freeNight.id,
      communityUntimed.id,
      plusLate.id,
      plusNextDay.id,
    ]);
    expect(lifted.map((r) => r.priority)).toEqual([true, true, true, true, false, false]);
  });
});

describe('Browse Requests: priority listing', () => {
  it("lists Plus and Community requesters' requests first within their hour of posting, newest first", async () => {
    const { viewer, free, plus, community } = await people();
    const posted = await call<DeliveryRequest>('POST', '/requests', { cookie: community.token, body: requestBody() });
    expect(posted.status).toBe(201);
    expect(posted.body.priority).toBe(true);

    const newerHour = await insertRequest(free.user.id, '2026-03-01T11:00:00.000Z');
    const free50 = await insertRequest(free.user.id, '2026-03-01T10:50:00.000Z');
    const free40 = await insertRequest(free.user.id, '2026-03-01T10:40:00.000Z');
    const community30 = await insertRequest(community.user.id, '2026-03-01T10:30:00.000Z');
    const plus10 = await insertRequest(plus.user.id, '2026-03-01T10:10:00.000Z');
    const plusEarlierHour = await insertRequest(plus.user.id, '2026-03-01T09:59:59.999Z');
    const ids = [newerHour, free50, free40, community30, plus10, plusEarlierHour].map((r) => r.id);

    const page = await browse<DeliveryRequest>('requests', viewer.token);
    expect(only(page.items, ids).map((r) => r.id)).toEqual([
      newerHour.id,
      community30.id,
      plus10.id,
      free50.id,
      free40.id,
      plusEarlierHour.id,
    ]);
    expect(only(page.items, ids).map((r) => r.priority)).toEqual([false, true, true, false, false, true]);
    expect(page.items.map((r) => r.id)).toEqual([...page.items].sort(requestBrowseOrder).map((r) => r.id));

    // My Requests stay newest first.
    const mine = await call<PageBody<DeliveryRequest>>('GET', '/requests/mine', { cookie: plus.token });
    expect(mine.body.items.map((r) => r.id)).toEqual([plus10.id, plusEarlierHour.id]);

    await setPlan(db(), community.user.id, null);
    const after = only((await browse<DeliveryRequest>('requests', viewer.token)).items, ids);
    expect(after.map((r) => r.id)).toEqual([
      newerHour.id,
      plus10.id,
      free50.id,
      free40.id,
      community30.id,
      plusEarlierHour.id,
    ]);
    expect(after.find((r) => r.id === community30.id)?.priority).toBe(false);
  });
});

/** Sets the three checks of the 'Verified' badge (issue 37), for 'Verified members only'. */
async function verify(userId: string) {
  const now = new Date();
  const phone = `+1555${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
  await db()
    .update(profiles)
    .set({ emailVerifiedAt: now, phone, phoneVerifiedAt: now, idCheckedAt: now })
    .where(eq(profiles.userId, userId));
}

describe.each(['rides', 'requests'] as const)('%s: paging a mixed list', (kind) => {
  it('returns each listing exactly once, in order, with limits 1 to 3 and every filter', async () => {
    const { viewer, free, plus, community } = await people();
    await verify(plus.user.id);
    const owners = [free, plus, community, free, plus];
    const word = kind === 'rides' ? 'haybales' : 'haylage';
    for (let i = 0; i < 15; i++) {
      const owner = owners[i % owners.length]!.user.id;
      const tagged = i % 4 === 0 ? word : null;
      if (kind === 'rides') {
        const day = `2099-08-0${1 + (i % 3)}`;
        await insertRide(owner, day, i % 5 === 2 ? null : `0${6 + (i % 4)}:${i % 2 ? '30' : '00'}`, tagged);
      } else {
        // Three hours, several requests sharing an instant (ties broken by id).
        const at = `2026-04-0${1 + (i % 2)}T1${i % 3}:${i % 5 === 0 ? '00' : '2' + (i % 4)}:00.000Z`;
        await insertRequest(owner, at, tagged ? `Bales of ${tagged}` : 'Feed sacks', i % 2 ? '2099-08-02' : null);
      }
    }
    const order = (kind === 'rides' ? rideBrowseOrder : requestBrowseOrder) as (a: unknown, b: unknown) => number;
    const plain = (kind === 'rides' ? rideOrder : requestOrder) as (a: unknown, b: unknown) => number;
    type Item = (Ride | DeliveryRequest) & { id: string };
    // Rides: departure dates; requests: needed-by dates (an undated request matches any range).
    const dates = kind === 'rides' ? '&from=2099-08-02&to=2099-08-03' : '&from=2099-08-05&to=2099-08-09';
    const queries = ['', `&q=${word}`, dates, '&verified=1', `&q=${word}&verified=1`, `${dates}&q=${word}`];
    for (const query of queries) {
      const whole = (await browse<Item>(kind, viewer.token, query)).items;
      expect(whole.length).toBeGreaterThan(0);
      expect(whole.map((i) => i.id)).toEqual([...whole].sort(order).map((i) => i.id));
      // The set does exercise priority: without it, the order would differ.
      if (query === '') expect(whole.map((i) => i.id)).not.toEqual([...whole].sort(plain).map((i) => i.id));
      if (query.includes('verified'))
        expect(whole.every((i) => ('poster_id' in i ? i.poster_id : i.requester_id) === plus.user.id)).toBe(true);
      if (query.includes('q=')) expect(whole.every((i) => JSON.stringify(i).includes(word))).toBe(true);
      if (query.includes('from=') && kind === 'rides')
        expect(whole.every((i) => (i as Ride).departure_date >= '2099-08-02')).toBe(true);
      if (query.includes('from=') && kind === 'requests')
        expect(whole.every((i) => (i as DeliveryRequest).needed_by_date === null)).toBe(true);
      for (const limit of [1, 2, 3]) {
        const paged = await collectPages<Item>((cursor) =>
          call<PageBody<Item>>('GET', `/${kind}/browse?limit=${limit}${query}${cursor ? `&cursor=${cursor}` : ''}`, {
            cookie: viewer.token,
          }),
        );
        expect(paged.items.map((i) => i.id)).toEqual(whole.map((i) => i.id));
        expect(paged.pages).toBe(Math.ceil(whole.length / limit));
      }
    }
  });

  it("keeps 'Near' nearest first, with the flag on each card", async () => {
    const { viewer, free, plus } = await people();
    const base = kind === 'rides' ? 910_001 : 910_011;
    await db()
      .insert(places)
      .values([
        { id: base, name: 'Near Town', state: 'NE', zip: '68001', lat: 41, lon: -97 },
        { id: base + 1, name: 'Next Town', state: 'NE', zip: '68002', lat: 41.05, lon: -97 },
      ]);
    const post = async (token: string, placeId: number) => {
      const body =
        kind === 'rides' ? rideBody({ origin_place_id: placeId }) : requestBody({ pickup_place_id: placeId });
      const res = await call<{ id: string }>('POST', `/${kind}`, { cookie: token, body });
      expect(res.status).toBe(201);
      return res.body.id;
    };
    const nearer = await post(free.token, base);
    const farther = await post(plus.token, base + 1);
    const pages = await collectPages<Ride | DeliveryRequest>((cursor) =>
      call<PageBody<Ride | DeliveryRequest>>(
        'GET',
        `/${kind}/browse?near=${base}&within=10&limit=1${cursor ? `&cursor=${cursor}` : ''}`,
        {
          cookie: viewer.token,
        },
      ),
    );
    expect(pages.items.map((i) => [i.id, i.priority])).toEqual([
      [nearer, false],
      [farther, true],
    ]);
  });

  it('refuses a cursor of the order before priority with the cursor message', async () => {
    const { viewer } = await people();
    const old =
      kind === 'rides'
        ? encodeCursor(['2099-08-01', '08:00:00', crypto.randomUUID()])
        : encodeCursor(['2026-04-01T10:00:00.000Z', crypto.randomUUID()]);
    const res = await call('GET', `/${kind}/browse?cursor=${old}`, { cookie: viewer.token });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_error' });
  });
});

// Real PostgreSQL: a listing posted while its poster's plan changes takes the plan the change commits, whichever
// of the two transactions locks the profile row first (the insert trigger reads it FOR SHARE).
describe.skipIf(!process.env.DATABASE_URL)('a listing posted during a plan move (real PostgreSQL)', () => {
  const client = async () => {
    const c = new pg.Client({ connectionString: ctx.database.url });
    await c.connect();
    return c;
  };
  const insertSql = `insert into rides (user_id, origin, destination, departure_date)
    values ($1, 'Oak Farm', 'Mill Market', '2099-09-01') returning id, priority`;

  it('an insert waiting for the move reads the new plan', async () => {
    const driver = await signUpAndIn('Race One');
    const [move, post] = [await client(), await client()];
    try {
      await move.query('begin');
      await move.query(`update profiles set plan = 'plus' where user_id = $1`, [driver.user.id]);
      const inserted = post.query<{ priority: boolean }>(insertSql, [driver.user.id]);
      await new Promise((resolve) => setTimeout(resolve, 200));
      await move.query('commit');
      expect((await inserted).rows[0]?.priority).toBe(true);
    } finally {
      await Promise.all([move.end(), post.end()]);
    }
  });

  it('a move waiting for the insert updates the new row', async () => {
    const driver = await signUpAndIn('Race Two');
    const [move, post] = [await client(), await client()];
    try {
      await post.query('begin');
      const { rows } = await post.query<{ id: string; priority: boolean }>(insertSql, [driver.user.id]);
      expect(rows[0]?.priority).toBe(false);
      const moved = move.query(`update profiles set plan = 'community' where user_id = $1`, [driver.user.id]);
      await new Promise((resolve) => setTimeout(resolve, 200));
      await post.query('commit');
      await moved;
      const [ride] = await db().select({ priority: rides.priority }).from(rides).where(eq(rides.id, rows[0]!.id));
      expect(ride?.priority).toBe(true);
    } finally {
      await Promise.all([move.end(), post.end()]);
    }
  });
});
