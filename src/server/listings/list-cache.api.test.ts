import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { Booking, DeliveryRequest, Ride } from '../../shared/marketplace';
import { setupTestApp, setupTwoInstances } from '../test/harness';
import { requestBody, rideBody, type PageBody } from '../test/marketplace';
import type { Db } from '../db/client';
import { foldListVersions } from '../db/list-versions';
import { rowsOf } from '../db/result-rows';
import { deliveryRequests, listVersions, myListVersions, profiles, rides, users } from '../db/schema';
import { TEST_CARD } from '../test/lifecycle';

/**
 * Browse pages are served from each instance's memory while their list's version stands (src/server/listings,
 * migration 0018): what a viewer sees must still be exactly what the database says, right after any write.
 */
type Call = <T = unknown>(
  method: string,
  path: string,
  opts?: { cookie?: string; body?: unknown },
) => Promise<{ status: number; body: T; headers: Headers }>;

const browse = async <T>(call: Call, list: 'rides' | 'requests', token: string, query = '') => {
  const res = await call<PageBody<T>>('GET', `/${list}/browse${query}`, { cookie: token });
  expect(res.status).toBe(200);
  return res.body;
};

const versionOf = async (db: Db, list: 'rides' | 'requests') => {
  const [row] = await db
    .select({ v: sql<string>`coalesce(sum(${listVersions.version}), 0)::text` })
    .from(listVersions)
    .where(eq(listVersions.list, list));
  return BigInt(row!.v);
};

describe('browse pages cached under their list version', () => {
  const { ctx, call, signUpAndIn } = setupTestApp({ AUTH_PER_IP_MAX: '100000' });

  it('each viewer sees their own is_own on a page cached for another, and a post or delete at once', async () => {
    const ana = await signUpAndIn('Ana Diaz');
    const ben = await signUpAndIn('Ben Okafor');
    const posted = await call<Ride>('POST', '/rides', { cookie: ana.token, body: rideBody({ origin: 'Ashby' }) });
    expect(posted.status).toBe(201);

    const forBen = await browse<Ride>(call, 'rides', ben.token);
    expect(forBen.items.find((r) => r.id === posted.body.id)).toMatchObject({ is_own: false });
    // Ana's read is a hit on the page Ben loaded: her ride is still hers.
    const forAna = await browse<Ride>(call, 'rides', ana.token);
    expect(forAna.items.find((r) => r.id === posted.body.id)).toMatchObject({ is_own: true, origin: 'Ashby' });
    expect((await browse<Ride>(call, 'rides', ben.token)).items.find((r) => r.id === posted.body.id)?.is_own).toBe(
      false,
    );

    // A viewer with nothing of theirs on the page gets the stored text: the same page, sent as JSON.
    const cleo = await signUpAndIn('Cleo Moss');
    const raw = await call<PageBody<Ride>>('GET', '/rides/browse', { cookie: cleo.token });
    expect(raw.headers.get('content-type')).toMatch(/^application\/json/);
    expect(raw.body).toEqual(forBen);

    const second = await call<Ride>('POST', '/rides', { cookie: ben.token, body: rideBody({ origin: 'Brill' }) });
    expect((await browse<Ride>(call, 'rides', ben.token)).items.map((r) => r.id)).toContain(second.body.id);
    expect((await call('DELETE', `/rides/${second.body.id}`, { cookie: ben.token })).status).toBe(204);
    expect((await browse<Ride>(call, 'rides', ana.token)).items.map((r) => r.id)).not.toContain(second.body.id);
  });

  it("a name change, a rating and a suspension show on the next read; a block hides the other's cards at once", async () => {
    const cara = await signUpAndIn('Cara Lee');
    const dev = await signUpAndIn('Dev Patel');
    const ride = (await call<Ride>('POST', '/rides', { cookie: cara.token, body: rideBody() })).body;
    const request = (await call<DeliveryRequest>('POST', '/requests', { cookie: cara.token, body: requestBody() }))
      .body;
    const card = async (list: 'rides' | 'requests', id: string) =>
      (await browse<Ride & DeliveryRequest>(call, list, dev.token)).items.find((x) => x.id === id);
    expect(await card('rides', ride.id)).toMatchObject({ poster_name: 'Cara Lee' });
    expect(await card('requests', request.id)).toMatchObject({ requester_name: 'Cara Lee' });

    const renamed = await call('PATCH', '/account/profile', {
      cookie: cara.token,
      body: { full_name: 'Cara Lee-Hunt' },
    });
    expect(renamed.status).toBe(200);
    expect(await card('rides', ride.id)).toMatchObject({ poster_name: 'Cara Lee-Hunt' });
    expect(await card('requests', request.id)).toMatchObject({ requester_name: 'Cara Lee-Hunt' });

    // Any writer counts, not only the app's routes: the triggers bump the versions.
    const db = ctx.database.db;
    await db.update(profiles).set({ ratingCount: 1, ratingSum: 4 }).where(eq(profiles.userId, cara.user.id));
    expect((await card('rides', ride.id))?.poster_rating).toMatchObject({ count: 1 });

    const blocked = await call('POST', '/blocks', { cookie: dev.token, body: { user_id: cara.user.id } });
    expect(blocked.status).toBe(201);
    expect(await card('rides', ride.id)).toBeUndefined();
    expect(await card('requests', request.id)).toBeUndefined();
    expect((await call('DELETE', `/blocks/${cara.user.id}`, { cookie: dev.token })).status).toBe(204);
    expect(await card('rides', ride.id)).toBeDefined();

    await db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, cara.user.id));
    expect(await card('rides', ride.id)).toBeUndefined();
    expect(await card('requests', request.id)).toBeUndefined();
  });

  it("accepting a request shows on the driver's cached card without changing the version", async () => {
    const eve = await signUpAndIn('Eve Stone');
    const finn = await signUpAndIn('Finn Gray');
    const gus = await signUpAndIn('Gus Hale');
    const request = (await call<DeliveryRequest>('POST', '/requests', { cookie: eve.token, body: requestBody() })).body;
    const card = async (token: string) =>
      (await browse<DeliveryRequest>(call, 'requests', token)).items.find((x) => x.id === request.id);
    expect(await card(finn.token)).toMatchObject({ accepted_by_me: false, is_own: false });
    const before = await versionOf(ctx.database.db, 'requests');
    expect((await call('POST', '/bookings', { cookie: finn.token, body: { request_id: request.id } })).status).toBe(
      201,
    );
    expect(await versionOf(ctx.database.db, 'requests')).toBe(before);
    expect(await card(finn.token)).toMatchObject({ accepted_by_me: true });
    expect(await card(gus.token)).toMatchObject({ accepted_by_me: false });
    expect(await card(eve.token)).toMatchObject({ is_own: true, accepted_by_me: false });
  });

  it('browses arriving together share one version read, and each viewer still gets their own cards', async () => {
    const ivy = await signUpAndIn('Ivy Ross');
    const jon = await signUpAndIn('Jon Bell');
    const kit = await signUpAndIn('Kit Nash');
    const lou = await signUpAndIn('Lou Park');
    const request = (await call<DeliveryRequest>('POST', '/requests', { cookie: ivy.token, body: requestBody() })).body;
    expect((await call('POST', '/bookings', { cookie: jon.token, body: { request_id: request.id } })).status).toBe(201);
    expect((await call('POST', '/blocks', { cookie: kit.token, body: { user_id: ivy.user.id } })).status).toBe(201);
    const viewers = [ivy, jon, kit, lou];
    // Every viewer's session is known and the page is cached: the burst below needs no other statement first.
    for (const viewer of viewers) await browse<DeliveryRequest>(call, 'requests', viewer.token);

    const client = (ctx.database.db as unknown as { $client: { query: (...args: unknown[]) => unknown } }).$client;
    const query = client.query;
    let versionReads = 0;
    client.query = function (this: unknown, ...args: unknown[]) {
      const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string }).text;
      if (text?.includes('list_versions')) versionReads += 1;
      return query.apply(this, args);
    };
    try {
      const pages = await Promise.all(viewers.map((v) => browse<DeliveryRequest>(call, 'requests', v.token)));
      const cards = pages.map((page) => page.items.find((x) => x.id === request.id));
      expect(cards[0]).toMatchObject({ is_own: true, accepted_by_me: false });
      expect(cards[1]).toMatchObject({ is_own: false, accepted_by_me: true });
      expect(cards[2]).toBeUndefined();
      expect(cards[3]).toMatchObject({ is_own: false, accepted_by_me: false });
      expect(versionReads).toBe(1);
    } finally {
      client.query = query;
    }
  });

  it('cursor pages are cached per cursor and follow writes too', async () => {
    const hal = await signUpAndIn('Hal Ames');
    // Before everyone else's (2099): the first pages are Hal's, so he may delete what they show.
    for (let i = 1; i <= 3; i++)
      await call('POST', '/rides', { cookie: hal.token, body: rideBody({ departure_date: `2098-01-0${i}` }) });
    const first = await browse<Ride>(call, 'rides', hal.token, '?limit=1');
    const cursor = `?limit=1&cursor=${first.next_cursor}`;
    const next = await browse<Ride>(call, 'rides', hal.token, cursor);
    expect(next.items[0]!.id).not.toBe(first.items[0]!.id);
    expect((await call('DELETE', `/rides/${next.items[0]!.id}`, { cookie: hal.token })).status).toBe(204);
    expect((await browse<Ride>(call, 'rides', hal.token, cursor)).items[0]?.id).not.toBe(next.items[0]!.id);
  });

  it("folds the rows of backends that have exited into the base row, keeping every list's version", async () => {
    const db = ctx.database.db;
    // Rows left by two backends long gone (no backend has such a pid), beside the live ones.
    await db.insert(listVersions).values([
      { list: 'rides', shard: 2_000_000_001, version: 7 },
      { list: 'requests', shard: 2_000_000_001, version: 3 },
      { list: 'rides', shard: 2_000_000_002, version: 5 },
    ]);
    const rides = await versionOf(db, 'rides');
    const requests = await versionOf(db, 'requests');

    expect(await foldListVersions(db)).toBeGreaterThanOrEqual(3);
    expect(await versionOf(db, 'rides')).toBe(rides);
    expect(await versionOf(db, 'requests')).toBe(requests);
    const dead = await db.execute(sql`select count(*)::int as n from ${listVersions} where ${listVersions.shard} <> 0
      and ${listVersions.shard} not in (select pid from pg_stat_activity where pid is not null)`);
    expect(rowsOf<{ n: number }>(dead)[0]?.n).toBe(0);
    // A write after the fold still moves the version, and the next page is the database's.
    const viewer = await signUpAndIn('Ida Fold');
    // Before every other test's rides, so on the first page.
    const body = rideBody({ departure_date: '2097-01-01' });
    const ride = (await call<Ride>('POST', '/rides', { cookie: viewer.token, body })).body;
    expect(await versionOf(db, 'rides')).toBeGreaterThan(rides);
    expect((await browse<Ride>(call, 'rides', viewer.token)).items.map((r) => r.id)).toContain(ride.id);
  });
});

describe.skipIf(!process.env.DATABASE_URL)('list versions on real PostgreSQL connections', () => {
  const { ctx } = setupTestApp();

  it("folds a closed connection's row, and skips a row another transaction holds without waiting", async () => {
    const db = ctx.database.db;
    const gone = new pg.Client({ connectionString: ctx.database.url });
    await gone.connect();
    const { rows } = await gone.query<{ pid: number }>('select pg_backend_pid() as pid');
    // A statement trigger fires even when no row changes: this backend bumps both lists' rows of its own.
    await gone.query('update profiles set full_name = full_name where false');
    await gone.end();
    const pid = rows[0]!.pid;
    const before = [await versionOf(db, 'rides'), await versionOf(db, 'requests')];
    await expect
      .poll(async () =>
        foldListVersions(db).then(() => db.select().from(listVersions).where(eq(listVersions.shard, pid))),
      )
      .toEqual([]);
    expect([await versionOf(db, 'rides'), await versionOf(db, 'requests')]).toEqual(before);

    // A row held by an open transaction (a new backend that reused a dead pid) is left for a later fold.
    await db.insert(listVersions).values({ list: 'rides', shard: 2_000_000_003, version: 4 });
    const holder = new pg.Client({ connectionString: ctx.database.url });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('update list_versions set version = version + 1 where shard = 2000000003');
      await foldListVersions(db);
      expect((await db.select().from(listVersions).where(eq(listVersions.shard, 2_000_000_003))).length).toBe(1);
      await holder.query('commit');
    } finally {
      await holder.end();
    }
    const rides = await versionOf(db, 'rides');
    await foldListVersions(db);
    expect(await db.select().from(listVersions).where(eq(listVersions.shard, 2_000_000_003))).toEqual([]);
    expect(await versionOf(db, 'rides')).toBe(rides);
  });
});

/** A user's own list as the API answers it. */
const mine = async <T>(call: Call, path: string, token: string) => {
  const res = await call<PageBody<T>>('GET', path, { cookie: token });
  expect(res.status).toBe(200);
  return res.body;
};

/** A change no trigger sees (triggers off for the statement's transaction): only a cache miss can show it. */
const unseen = (db: Db, statement: ReturnType<typeof sql>) =>
  db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.execute(statement);
  });

/**
 * My Rides, My Requests and My Bookings are served from memory while their user's version stands (migration 0020):
 * every write to anything one of them shows must be on that user's next read.
 */
describe("the user's own lists cached under their version", () => {
  const { ctx, call, signUpAndIn } = setupTestApp({ AUTH_PER_IP_MAX: '100000' });

  it('a second read is served from memory, and a post, a delete, a rename or a rating shows at once', async () => {
    const db = ctx.database.db;
    const mo = await signUpAndIn('Mo Reed');
    const ride = (await call<Ride>('POST', '/rides', { cookie: mo.token, body: rideBody({ notes: 'first' }) })).body;
    const request = (await call<DeliveryRequest>('POST', '/requests', { cookie: mo.token, body: requestBody() })).body;
    expect((await mine<Ride>(call, '/rides/mine', mo.token)).items).toMatchObject([{ id: ride.id, notes: 'first' }]);
    expect((await mine<DeliveryRequest>(call, '/requests/mine', mo.token)).items).toMatchObject([{ id: request.id }]);

    // Proof the page comes from memory: a change made with the triggers off is not seen…
    await unseen(db, sql`update ${rides} set notes = 'unseen' where ${rides.id} = ${ride.id}`);
    expect((await mine<Ride>(call, '/rides/mine', mo.token)).items[0]?.notes).toBe('first');
    // …until any write the triggers see: the next read is the database's.
    const second = (await call<Ride>('POST', '/rides', { cookie: mo.token, body: rideBody({ notes: 'second' }) })).body;
    const after = await mine<Ride>(call, '/rides/mine', mo.token);
    expect(after.items.map((r) => r.notes).sort()).toEqual(['second', 'unseen']);
    expect(after.items.every((r) => r.is_own)).toBe(true);

    expect((await call('DELETE', `/rides/${second.id}`, { cookie: mo.token })).status).toBe(204);
    expect((await mine<Ride>(call, '/rides/mine', mo.token)).items.map((r) => r.id)).toEqual([ride.id]);
    expect((await call('DELETE', `/requests/${request.id}`, { cookie: mo.token })).status).toBe(204);
    expect((await mine<DeliveryRequest>(call, '/requests/mine', mo.token)).items).toEqual([]);

    expect(
      (await call('PATCH', '/account/profile', { cookie: mo.token, body: { full_name: 'Mo Reed-Hart' } })).status,
    ).toBe(200);
    expect((await mine<Ride>(call, '/rides/mine', mo.token)).items[0]?.poster_name).toBe('Mo Reed-Hart');
    // Any writer counts, not only the app's routes.
    await db.update(profiles).set({ ratingCount: 2, ratingSum: 9 }).where(eq(profiles.userId, mo.user.id));
    expect((await mine<Ride>(call, '/rides/mine', mo.token)).items[0]?.poster_rating).toMatchObject({ count: 2 });
  });

  it("an offer, its answer and the other party's name reach both people's lists", async () => {
    const db = ctx.database.db;
    const nia = await signUpAndIn('Nia Cole');
    const oz = await signUpAndIn('Oz Grant');
    const request = (await call<DeliveryRequest>('POST', '/requests', { cookie: nia.token, body: requestBody() })).body;
    const offers = async () =>
      (await mine<DeliveryRequest>(call, '/requests/mine', nia.token)).items.find((x) => x.id === request.id)
        ?.offer_count;
    const driving = async () => (await mine<Booking>(call, '/bookings/mine', oz.token)).items;
    const onMine = async () => (await mine<Booking>(call, '/bookings/mine?role=requester', nia.token)).items;
    expect(await offers()).toBe(0);
    expect(await driving()).toEqual([]);
    expect(await onMine()).toEqual([]);

    const booking = (await call<Booking>('POST', '/bookings', { cookie: oz.token, body: { request_id: request.id } }))
      .body;
    expect(await offers()).toBe(1);
    expect(await driving()).toMatchObject([{ id: booking.id, status: 'pending', driver_name: 'Oz Grant' }]);
    expect(await onMine()).toMatchObject([{ id: booking.id, status: 'pending' }]);

    // The other party's new name, on each side's list.
    await call('PATCH', '/account/profile', { cookie: nia.token, body: { full_name: 'Nia Cole-Bay' } });
    expect((await driving())[0]?.request.requester_name).toBe('Nia Cole-Bay');
    await call('PATCH', '/account/profile', { cookie: oz.token, body: { full_name: 'Oz Grant-Lee' } });
    expect((await onMine())[0]?.driver_name).toBe('Oz Grant-Lee');
    // The request's title, on the driver's list (any writer: the app has no edit yet).
    await db.update(deliveryRequests).set({ title: 'Feed sacks' }).where(eq(deliveryRequests.id, request.id));
    expect((await driving())[0]?.request.title).toBe('Feed sacks');

    expect((await call('POST', `/bookings/${booking.id}/decline`, { cookie: nia.token, body: {} })).status).toBe(200);
    expect(await offers()).toBe(0);
    expect((await driving())[0]?.status).toBe('declined');
    expect((await onMine())[0]?.status).toBe('declined');
  });

  it('cursor pages are cached per cursor and limit, and follow writes too', async () => {
    const pia = await signUpAndIn('Pia Hunt');
    for (let i = 1; i <= 3; i++)
      await call('POST', '/rides', { cookie: pia.token, body: rideBody({ departure_date: `2098-02-0${i}` }) });
    const first = await mine<Ride>(call, '/rides/mine?limit=1', pia.token);
    expect(first.items).toHaveLength(1);
    expect((await mine<Ride>(call, '/rides/mine?limit=2', pia.token)).items).toHaveLength(2);
    const cursor = `/rides/mine?limit=1&cursor=${first.next_cursor}`;
    const next = await mine<Ride>(call, cursor, pia.token);
    expect(next.items[0]!.id).not.toBe(first.items[0]!.id);
    expect((await call('DELETE', `/rides/${next.items[0]!.id}`, { cookie: pia.token })).status).toBe(204);
    expect((await mine<Ride>(call, cursor, pia.token)).items[0]?.id).not.toBe(next.items[0]!.id);
  });

  it('folds the rows of backends that have exited, keeping each version, and drops those of deleted users', async () => {
    const db = ctx.database.db;
    const quin = await signUpAndIn('Quin Vale');
    const gone = '00000000-0000-4000-8000-00000000dead';
    await db.insert(myListVersions).values([
      { userId: quin.user.id, shard: 2_000_000_011, version: 7 },
      { userId: quin.user.id, shard: 2_000_000_012, version: 5 },
      { userId: gone, shard: 2_000_000_011, version: 2 },
    ]);
    const versionOfQuin = async () => {
      const [row] = await db
        .select({ v: sql<string>`coalesce(sum(${myListVersions.version}), 0)::text` })
        .from(myListVersions)
        .where(eq(myListVersions.userId, quin.user.id));
      return BigInt(row!.v);
    };
    const before = await versionOfQuin();
    expect(await foldListVersions(db)).toBeGreaterThanOrEqual(3);
    expect(await versionOfQuin()).toBe(before);
    expect(await db.select().from(myListVersions).where(eq(myListVersions.userId, gone))).toEqual([]);
    const shards = await db
      .select({ shard: myListVersions.shard })
      .from(myListVersions)
      .where(eq(myListVersions.userId, quin.user.id));
    expect(shards.map((s) => s.shard)).not.toContain(2_000_000_011);
    // A write after the fold still moves the version.
    await call('POST', '/rides', { cookie: quin.token, body: rideBody() });
    expect(await versionOfQuin()).toBeGreaterThan(before);
    expect((await mine<Ride>(call, '/rides/mine', quin.token)).items).toHaveLength(1);
  });
});

describe.skipIf(!process.env.DATABASE_URL)('browse pages cached on two instances of one PostgreSQL', () => {
  const { a, b, signUpAndIn } = setupTwoInstances({ AUTH_PER_IP_MAX: '100000' });

  it("a write through one instance is on the other's next page, for the writer and everyone else", async () => {
    const ivy = await signUpAndIn('Ivy North');
    const jon = await signUpAndIn('Jon West');
    // Both instances hold the page, with the request on it.
    const request = (await a<DeliveryRequest>('POST', '/requests', { cookie: ivy.token, body: requestBody() })).body;
    const ride = (await a<Ride>('POST', '/rides', { cookie: ivy.token, body: rideBody() })).body;
    for (const call of [a, b]) {
      expect((await browse<DeliveryRequest>(call, 'requests', jon.token)).items.map((x) => x.id)).toContain(request.id);
      expect((await browse<Ride>(call, 'rides', jon.token)).items.map((x) => x.id)).toContain(ride.id);
    }

    // Deleted on B: A's cached pages are not served again.
    expect((await b('DELETE', `/requests/${request.id}`, { cookie: ivy.token })).status).toBe(204);
    expect((await b('DELETE', `/rides/${ride.id}`, { cookie: ivy.token })).status).toBe(204);
    for (const token of [ivy.token, jon.token]) {
      expect((await browse<DeliveryRequest>(a, 'requests', token)).items.map((x) => x.id)).not.toContain(request.id);
      expect((await browse<Ride>(a, 'rides', token)).items.map((x) => x.id)).not.toContain(ride.id);
    }

    // Posted on A, renamed on B: both show on A's and B's next pages.
    const again = (await a<Ride>('POST', '/rides', { cookie: ivy.token, body: rideBody() })).body;
    expect((await browse<Ride>(b, 'rides', jon.token)).items.map((x) => x.id)).toContain(again.id);
    expect((await b('PATCH', '/account/profile', { cookie: ivy.token, body: { full_name: 'Ivy South' } })).status).toBe(
      200,
    );
    for (const call of [a, b])
      expect((await browse<Ride>(call, 'rides', jon.token)).items.find((x) => x.id === again.id)).toMatchObject({
        poster_name: 'Ivy South',
      });
  });

  it("a write through one instance is on the other's next read of the writer's and the other party's own lists", async () => {
    const rae = await signUpAndIn('Rae Moon');
    const sol = await signUpAndIn('Sol Park');
    const request = (await a<DeliveryRequest>('POST', '/requests', { cookie: rae.token, body: requestBody() })).body;
    for (const call of [a, b]) {
      expect((await mine<DeliveryRequest>(call, '/requests/mine', rae.token)).items).toMatchObject([
        { offer_count: 0 },
      ]);
      expect((await mine<Booking>(call, '/bookings/mine', sol.token)).items).toEqual([]);
    }
    const booking = (await b<Booking>('POST', '/bookings', { cookie: sol.token, body: { request_id: request.id } }))
      .body;
    for (const call of [a, b]) {
      expect((await mine<DeliveryRequest>(call, '/requests/mine', rae.token)).items).toMatchObject([
        { offer_count: 1 },
      ]);
      expect((await mine<Booking>(call, '/bookings/mine', sol.token)).items).toMatchObject([{ id: booking.id }]);
    }
    expect(
      (await a('POST', `/bookings/${booking.id}/choose`, { cookie: rae.token, body: { card: TEST_CARD } })).status,
    ).toBe(200);
    for (const call of [a, b]) {
      expect((await mine<Booking>(call, '/bookings/mine', sol.token)).items[0]?.status).toBe('confirmed');
      expect((await mine<DeliveryRequest>(call, '/requests/mine', rae.token)).items[0]?.status).toBe('matched');
    }
  });
});
