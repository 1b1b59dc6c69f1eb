import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBookingService } from '../src/server/bookings/service';
import type { Page } from '../src/shared/marketplace';
import type { Database } from '../src/server/db/client';
import { pageOf, type PageJson } from '../src/server/core/page-json';
import { encodeCursor } from '../src/server/db/cursor';
import { createPlaceService } from '../src/server/places';
import { createRequestService } from '../src/server/requests/service';
import { createRideService } from '../src/server/rides/service';
import { createTestDatabase } from '../src/server/test/database';
import { explainGeneric, loggingDb, type Captured } from './explain';
import { seedUsers } from './seed';

/**
 * Index-use guard: every marketplace list query, captured as the services send it, must be planned (prepared,
 * generic plan, as the pool runs it) as a range scan of its own index, never a Seq Scan of a big table, and read in
 * the index's order (no Sort). The planner chooses by itself, with enable_seqscan left on: ROWS rides and requests
 * (analyzed) are enough for it to prefer the indexes, on PGlite and on PostgreSQL 15 alike; bench:api prints the same
 * plans at 100,000 rows. A query that stops matching its index (a status passed as a parameter cannot use a partial
 * index; an ORDER BY that differs from the index needs a Sort) then fails here: dropping rides_active_departure_idx
 * turns both browse-rides plans into a scan plus a Sort.
 */
const ROWS = 4_000;
const BIG_TABLES = ['rides', 'delivery_requests', 'bookings', 'users', 'profiles'];

/** The list, the index its plan must scan, and the table that index is on. */
const EXPECTED: Record<string, { index: string; table: string }> = {
  'browse rides, first page': { index: 'rides_active_departure_idx', table: 'rides' },
  'browse rides, deep page': { index: 'rides_active_departure_idx', table: 'rides' },
  'my rides, first page': { index: 'rides_user_departure_idx', table: 'rides' },
  'my rides, second page': { index: 'rides_user_departure_idx', table: 'rides' },
  'browse requests, first page': { index: 'delivery_requests_open_created_idx', table: 'delivery_requests' },
  'browse requests, deep page': { index: 'delivery_requests_open_created_idx', table: 'delivery_requests' },
  'my requests, first page': { index: 'delivery_requests_user_created_idx', table: 'delivery_requests' },
  'my requests, second page': { index: 'delivery_requests_user_created_idx', table: 'delivery_requests' },
  'my bookings, first page': { index: 'bookings_driver_created_idx', table: 'bookings' },
  'my bookings, second page': { index: 'bookings_driver_created_idx', table: 'bookings' },
  'bookings on my requests, first page': { index: 'bookings_requester_created_idx', table: 'bookings' },
};

let database: Database;
const plans = new Map<string, string[]>();

beforeAll(async () => {
  database = await createTestDatabase();
  const db = database.db;
  await seedUsers(db);
  // bench<n>@example.com, n = 1..1000; the lists are read as bench1, who owns 1 row in 50 and drives some bookings.
  const users = sql`(select id, substring(email from 6 for position('@' in email) - 6)::int as n from users
    where email like 'bench%@example.com')`;
  // Every seventh user on a paid plan: Browse's priority key (issue 38) takes both values, as the triggers set it.
  await db.execute(
    sql`update profiles set plan = 'plus' from ${users} u where u.id = profiles.user_id and u.n % 7 = 0`,
  );
  await db.execute(sql`
    insert into rides (user_id, origin, destination, departure_date, departure_time, available_space, status)
    select u.id, 'Town ' || (g % 50), 'Market ' || (g % 9), current_date + (g % 365),
      case when g % 4 = 0 then null else make_time(6 + g % 14, (g * 7) % 60, 0) end, 'Back seat',
      case when g % 10 = 0 then 'completed' else 'active' end
    from generate_series(1, ${ROWS}) g join ${users} u on u.n = g % 50 + 1`);
  await db.execute(sql`
    insert into delivery_requests (user_id, title, description, pickup_location, delivery_location, status, created_at)
    select u.id, 'Parcel ' || g, 'Two boxes', 'Co-op ' || (g % 50), 'Farm ' || (g % 30),
      case when g % 10 = 0 then 'matched' else 'open' end, now() - make_interval(secs => g)
    from generate_series(1, ${ROWS}) g join ${users} u on u.n = g % 50 + 1`);
  // A pending offer on every open request from the owner's next user: bench1 drives 1 in 50, receives 1 in 50.
  await db.execute(sql`
    insert into bookings (request_id, driver_id, requester_id, status, created_at)
    select r.id, d.id, r.user_id, 'pending', r.created_at + interval '1 minute'
    from delivery_requests r join ${users} o on o.id = r.user_id join ${users} d on d.n = o.n % 50 + 1
    where r.status = 'open'`);
  await db.execute(sql`analyze`);
}, 120_000);

afterAll(async () => {
  await database?.close();
});

/** Both drivers answer db.execute with `{ rows }`. */
async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await database.db.execute(query)) as unknown as { rows: T[] }).rows;
}

async function capture(): Promise<Captured[]> {
  const [me] = await rows<{ id: string }>(sql`select id::text as id from users where email = 'bench1@example.com'`);
  const [ride] = await rows<{ d: string; priority: boolean; t: string; id: string }>(
    sql`select departure_date::text as d, priority, coalesce(departure_time, time '24:00')::text as t, id::text as id
        from rides where status = 'active' and departure_date >= current_date - 1
        order by departure_date, not priority, coalesce(departure_time, time '24:00'), id offset ${ROWS / 2} limit 1`,
  );
  const [request] = await rows<{ priority: boolean; at: string; id: string }>(
    sql`select priority, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at, id::text as id
        from delivery_requests where status = 'open'
        order by date_trunc('hour', created_at at time zone 'UTC') desc, priority desc, created_at desc, id desc offset ${ROWS / 2} limit 1`,
  );
  if (!me || !ride || !request) throw new Error('the seed made too few rows');
  const page = { limit: 20 };
  const second = async <T>(list: Promise<Page<T> | PageJson>) => {
    const cursor = pageOf(await list).next_cursor;
    if (!cursor) throw new Error('a "my" list has no second page');
    return { limit: 20, cursor };
  };
  // The cursors come through services of their own: the "my" lists' page cache is per database handle
  // (src/server/listings), so the logged services below still run every query.
  const unlogged = createPlaceService(database.db);
  const cursors = {
    rides: await second(createRideService(database.db, unlogged).listMine(me.id, page)),
    requests: await second(createRequestService(database.db, unlogged).listMine(me.id, page)),
    bookings: await second(createBookingService(database.db).listMine(me.id, page)),
  };
  const { db, captured, labelNext } = await loggingDb(database);
  const places = createPlaceService(db);
  const ridesService = createRideService(db, places);
  const requests = createRequestService(db, places);
  const bookings = createBookingService(db);
  const steps: [string, () => Promise<unknown>][] = [
    ['browse rides, first page', () => ridesService.browse(me.id, page)],
    [
      'browse rides, deep page',
      () =>
        ridesService.browse(me.id, {
          limit: 20,
          cursor: encodeCursor([ride.d, ride.priority ? '1' : '0', ride.t, ride.id]),
        }),
    ],
    ['my rides, first page', () => ridesService.listMine(me.id, page)],
    ['my rides, second page', () => ridesService.listMine(me.id, cursors.rides)],
    ['browse requests, first page', () => requests.browse(me.id, page)],
    [
      'browse requests, deep page',
      () =>
        requests.browse(me.id, {
          limit: 20,
          cursor: encodeCursor([request.priority ? '1' : '0', request.at, request.id]),
        }),
    ],
    ['my requests, first page', () => requests.listMine(me.id, page)],
    ['my requests, second page', () => requests.listMine(me.id, cursors.requests)],
    ['my bookings, first page', () => bookings.listMine(me.id, page)],
    ['my bookings, second page', () => bookings.listMine(me.id, cursors.bookings)],
    ['bookings on my requests, first page', () => bookings.listMine(me.id, page, 'requester')],
  ];
  captured.length = 0;
  for (const [label, step] of steps) {
    labelNext(label);
    await step();
  }
  return captured;
}

/** A plan's lines without its SubPlan and InitPlan subtrees (each deeper-indented than its heading). */
function outsideSubPlans(lines: string[]): string[] {
  const kept: string[] = [];
  let skipDeeperThan = -1;
  for (const line of lines) {
    const indent = line.length - line.trimStart().length;
    if (skipDeeperThan >= 0 && indent > skipDeeperThan) continue;
    skipDeeperThan = /^\s*(SubPlan|InitPlan)\b/.test(line) ? indent : -1;
    if (skipDeeperThan < 0) kept.push(line);
  }
  return kept;
}

describe('index-use guard: each list query scans its own index (generic plan)', () => {
  it('plans every list query as a range scan of the expected index, with no Seq Scan or Sort', async () => {
    const captured = await capture();
    for (const c of captured) {
      const lines = await explainGeneric(database, c);
      plans.set(c.label, [...(plans.get(c.label) ?? []), ...lines]);
    }
    expect([...plans.keys()].sort()).toEqual(Object.keys(EXPECTED).sort());
    const problems: string[] = [];
    for (const [label, lines] of plans) {
      const plan = lines.join('\n');
      const expected = EXPECTED[label]!;
      const before = problems.length;
      const scans = new RegExp(`Index (Only )?Scan (Backward )?using ${expected.index} on ${expected.table}\\b`);
      if (!scans.test(plan)) problems.push(`${label}: does not scan ${expected.index}`);
      for (const table of BIG_TABLES)
        if (new RegExp(`Seq Scan on ${table}\\b`).test(plan)) problems.push(`${label}: Seq Scan on ${table}`);
      // The index gives the page's order: a Sort means it no longer does. A subquery per row (a ride's stops, ordered
      // by position) sorts its own few rows, not the page's.
      if (/^\s*(->\s*)?(Incremental )?Sort\b/m.test(outsideSubPlans(lines).join('\n')))
        problems.push(`${label}: sorts instead of reading in order`);
      if (problems.length > before) console.log(`-- ${label}\n${plan}`);
    }
    expect(problems).toEqual([]);
  });
});
