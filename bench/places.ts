/**
 * `npm run bench:places`: with the gazetteer loaded (about 30k places), seeds 1,000 users, 100,000 open
 * requests and 20,000 active rides between places (coordinates copied, as posting with chosen suggestions stores
 * them), starts the API in a child process and measures, each at a steady offered rate (bench/open-loop.ts):
 * place suggestions over realistic typing (name prefixes, 'Town, ST', typos, ZIP prefixes), then Browse with
 * filters (near/within, from/to, q and combinations) on both lists. Prints p50/p99 and served req/s, then EXPLAIN
 * ANALYZE of each query once (index use). Real PostgreSQL when DATABASE_URL is set (a throwaway database), else
 * embedded PGlite in a temp dir. BENCH_SECONDS, BENCH_SUGGEST_RATE and BENCH_BROWSE_RATE override the defaults.
 */
import type { ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { sql } from 'drizzle-orm';
import { openDatabase, type Database, type Db } from '../src/server/db/client';
import { rowsOf } from '../src/server/db/result-rows';
import { createPlaceService, loadPlaces } from '../src/server/places';
import { createRequestService } from '../src/server/requests/service';
import { createRideService } from '../src/server/rides/service';
import { loggingDb } from './explain';
import { createTarget, printTable, startServer, stopServer } from './lib';
import { openLoop } from './open-loop';
import { seedUsers, USERS } from './seed';

const baseUrl = process.env.DATABASE_URL;
const kind = baseUrl ? 'postgres' : 'pglite';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const SUGGEST_RATE = Number(process.env.BENCH_SUGGEST_RATE ?? (baseUrl ? 500 : 50));
const BROWSE_RATE = Number(process.env.BENCH_BROWSE_RATE ?? (baseUrl ? 300 : 20));
const REQUESTS = 100_000;
const RIDES = 20_000;
const CONNECTIONS = 50;
/** The machine's load average (1, 5, 15 min): it is shared, so every figure is printed with it. */
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

const ITEMS = `array['Feed sacks', 'Hay bales', 'Fence posts', 'Egg cartons', 'Seed potatoes', 'Tractor part',
  'Honey jars', 'Firewood', 'Café chairs', 'Piglets crate']`;
const DETAILS = `array['Two bags, fragile', 'Heavy: needs a truck', 'Small box, fits a back seat',
  'Cold box - keep chilled', 'From the co-op, paid for']`;

/**
 * Listings between places: place ids spread by a multiplicative step (every state), the far end among the next 40
 * ids (towns of the same state, in (state, name) order), so most trips are regional as in real life.
 */
async function seedListings(db: Db, places: number) {
  const pick = (g: string) => sql.raw(`(${g} * 7919) % ${places} + 1`);
  const other = (g: string) => sql.raw(`((${g} * 7919) % ${places} + 1 + ${g} % 40) % ${places} + 1`);
  const users = sql`select id, row_number() over (order by email) - 1 as rn from users where email like 'bench%'`;
  await db.execute(sql`
    with u as (${users})
    insert into delivery_requests (user_id, title, description, pickup_location, delivery_location, needed_by_date,
      compensation_cents, status, created_at, pickup_place_id, pickup_lat, pickup_lon, delivery_place_id,
      delivery_lat, delivery_lon)
    select u.id, (${sql.raw(ITEMS)})[1 + g % 10] || ' ' || g, (${sql.raw(DETAILS)})[1 + g % 5],
      a.name || ', ' || a.state, b.name || ', ' || b.state, case when g % 2 = 0 then current_date + (g % 90) end,
      (g % 40) * 100, 'open', now() - make_interval(secs => g), a.id, a.lat, a.lon, b.id, b.lat, b.lon
    from generate_series(1, ${REQUESTS}) g join u on u.rn = g % ${USERS}
    join places a on a.id = ${pick('g')} join places b on b.id = ${other('g')}`);
  await db.execute(sql`
    with u as (${users})
    insert into rides (user_id, origin, destination, departure_date, departure_time, available_space, notes, status,
      origin_place_id, origin_lat, origin_lon, destination_place_id, destination_lat, destination_lon)
    select u.id, a.name || ', ' || a.state, b.name || ', ' || b.state, current_date + (g % 120),
      case when g % 4 = 0 then null else make_time(6 + g % 14, (g * 7) % 60, 0) end, 'Back seat and trunk',
      case when g % 3 = 0 then 'Room for hay bales or feed sacks; leaving from the co-op' end, 'active',
      a.id, a.lat, a.lon, b.id, b.lat, b.lon
    from generate_series(1, ${RIDES}) g join u on u.rn = g % ${USERS}
    join places a on a.id = ${pick('g * 3')} join places b on b.id = ${other('g * 3')}`);
  await db.execute(sql`vacuum analyze`);
  // Again: an autovacuum ANALYZE running meanwhile holds a snapshot that can keep the first from marking the new
  // pages all-visible, and index-only scans would then read the table after all (not the steady state).
  await db.execute(sql`vacuum`);
  // The seeded rows' checkpoint would otherwise write them out during the first measurement.
  await db.execute(sql`checkpoint`);
}

/** What people type into a location field: prefixes of real names, 'Town, ST', a typo, ZIP prefixes. */
function typing(names: { name: string; state: string; zip: string }[]): string[] {
  const out: string[] = [];
  names.forEach((p, i) => {
    const n = p.name;
    out.push(n.slice(0, 2 + (i % 5)));
    if (i % 4 === 0) out.push(`${n}, ${p.state}`);
    if (i % 4 === 1 && n.length > 5) out.push(n.slice(0, 3) + n.slice(4)); // a letter left out
    if (i % 4 === 2) out.push(p.zip.slice(0, 3));
  });
  return out;
}

/**
 * A typo in the first two letters ('Dpringfield', 'Sringfield'): nothing shares them, so suggest() falls back to
 * the names holding the rest of the text (docs/places.md, step 3). Names of 5 letters or more: first letter
 * changed, or second dropped.
 */
function typingFirstLetters(names: { name: string }[]): string[] {
  return names
    .filter((p) => /^[A-Za-z]{5,}/.test(p.name))
    .map(({ name: n }, i) =>
      i % 2 === 0
        ? String.fromCharCode(((n.toLowerCase().charCodeAt(0) - 97 + 3) % 26) + 97) + n.slice(1)
        : n[0]! + n.slice(2),
    );
}

interface Scenario {
  name: string;
  path: (i: number) => string;
}

function browseScenarios(nearIds: number[], towns: string[]): Scenario[] {
  const near = (i: number) => nearIds[i % nearIds.length];
  const rare = (k: string, i: number) =>
    k === 'requests' ? String(1000 + ((i * 7919) % 90_000)) : encodeURIComponent(towns[i % towns.length]!);
  const soon = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
  const range = `from=${soon(10)}&to=${soon(40)}`;
  // Controls: no database (the machine's and the generator's tail), and Browse without filters (as before).
  const list: Scenario[] = [{ name: 'control: GET /health', path: () => '/api/health' }];
  for (const k of ['requests', 'rides']) {
    list.push(
      { name: `${k}: no filter (control)`, path: () => `/api/${k}/browse` },
      { name: `${k}: near, within 25`, path: (i) => `/api/${k}/browse?near=${near(i)}` },
      { name: `${k}: near, within 50`, path: (i) => `/api/${k}/browse?near=${near(i)}&within=50` },
      { name: `${k}: q 'hay'`, path: () => `/api/${k}/browse?q=hay` },
      { name: `${k}: q 'feed sacks'`, path: () => `/api/${k}/browse?q=feed%20sacks` },
      // A rare word (a request's number; a ride's start town): the trigram index finds the few rows.
      { name: `${k}: q, a rare word`, path: (i) => `/api/${k}/browse?q=${rare(k, i)}` },
      { name: `${k}: from/to (30 days)`, path: () => `/api/${k}/browse?${range}` },
      { name: `${k}: near 10 + from/to + q`, path: (i) => `/api/${k}/browse?near=${near(i)}&within=10&${range}&q=hay` },
    );
  }
  return list;
}

/** EXPLAIN ANALYZE (custom plan, as the unnamed statements run) of every query the steps send, once each. */
async function explainOnce(database: Database, steps: [string, (db: Db) => Promise<unknown>][]) {
  const { db, captured, labelNext } = await loggingDb(database);
  for (const [name, step] of steps) {
    labelNext(name);
    await step(db);
  }
  const literal = (v: unknown) => (typeof v === 'number' ? String(v) : `'${String(v).replace(/'/g, "''")}'`);
  console.log('\n[bench] EXPLAIN ANALYZE of each query, on the seeded data:');
  let n = 0;
  for (const c of captured) {
    n += 1;
    const lines = await database.db.transaction(async (tx) => {
      await tx.execute(sql.raw(`prepare bench_places_${n} as ${c.query}`));
      const args = c.params.length ? `(${c.params.map(literal).join(', ')})` : '';
      const result = await tx.execute(sql.raw(`explain (analyze, costs off) execute bench_places_${n}${args}`));
      await tx.execute(sql.raw(`deallocate bench_places_${n}`));
      return rowsOf<{ 'QUERY PLAN': string }>(result).map((r) => r['QUERY PLAN']);
    });
    console.log(`\n-- ${c.label}\n${lines.map((l) => `   ${l}`).join('\n')}`);
  }
}

async function main() {
  const started = Date.now();
  const target = await createTarget(baseUrl);
  let server: ChildProcess | undefined;
  try {
    const database = await openDatabase({ url: target.url, dataDir: target.dataDir });
    const loadStarted = performance.now();
    const loaded = await loadPlaces(database.db);
    console.log(`[bench] ${kind}: ${loaded} places loaded in ${Math.round(performance.now() - loadStarted)} ms`);
    const tokens = await seedUsers(database.db);
    await seedListings(database.db, loaded);
    const sample = rowsOf<{ id: number; name: string; state: string; zip: string }>(
      await database.db.execute(
        sql`select id, name, state, zip from places where id % 97 = 0 or (name = 'Springfield' and state = 'IL')`,
      ),
    );
    const inputs = typing(sample);
    const nearIds = sample.map((p) => p.id);
    console.log(
      `[bench] seeded ${REQUESTS} requests and ${RIDES} rides in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    await database.close();

    const { child, port } = await startServer(
      { DATABASE_URL: target.url ?? '', DATA_DIR: target.dataDir || './data', NODE_ENV: 'production' },
      { script: 'bench/server.ts', inheritStderr: true, timeoutMs: 60_000 },
    );
    server = child;
    const token = (i: number) => tokens[i % tokens.length] ?? '';
    const measure = async (name: string, rate: number, path: (i: number) => string, auth: boolean) => {
      const load = {
        port,
        rate,
        connections: CONNECTIONS,
        path,
        headers: (i: number): Record<string, string> => (auth ? { authorization: `Bearer ${token(i)}` } : {}),
      };
      // Unmeasured warm-up at the same rate (JIT, plans, caches), as bench:api does.
      await openLoop({ ...load, seconds: 2 });
      const r = await openLoop({ ...load, seconds: SECONDS });
      return {
        query: name,
        'offered req/s': rate,
        'served req/s': r.servedPerSecond,
        'p50 ms': r.p50,
        'p99 ms': r.p99,
        'max ms': r.max,
        'non-2xx or errors': r.failed,
        'load (1 min)': loadavg()[0]!.toFixed(1),
      };
    };
    console.log(`[bench] load average before measuring: ${load()}`);
    const suggest = (i: number) => `/api/places?q=${encodeURIComponent(inputs[i % inputs.length]!)}`;
    const table = [await measure(`suggestions (${inputs.length} inputs in turn)`, SUGGEST_RATE, suggest, false)];
    const typos = typingFirstLetters(sample);
    const typo = (i: number) => `/api/places?q=${encodeURIComponent(typos[i % typos.length]!)}`;
    table.push(
      await measure(`suggestions, typo in the first two letters (${typos.length})`, SUGGEST_RATE, typo, false),
    );
    console.log(`\nPlace suggestions on ${kind}, ${loaded} places, steady ${SUGGEST_RATE} req/s for ${SECONDS} s:`);
    printTable(table);

    const browse = [];
    for (const s of browseScenarios(
      nearIds,
      sample.map((p) => p.name),
    ))
      browse.push(await measure(s.name, BROWSE_RATE, s.path, true));
    console.log(
      `\nFiltered Browse on ${kind}, ${REQUESTS} open requests and ${RIDES} rides, steady ${BROWSE_RATE} req/s for ${SECONDS} s each:`,
    );
    printTable(browse);
    console.log(`[bench] load average after measuring: ${load()}`);
    await stopServer(child);
    server = undefined;

    if (process.env.BENCH_EXPLAIN !== '0') {
      const again = await openDatabase({ url: target.url, dataDir: target.dataDir });
      const places = (db: Db) => createPlaceService(db);
      const [viewer] = rowsOf<{ id: string }>(await again.db.execute(sql`select id from users limit 1`));
      const me = viewer!.id;
      const springfield = sample.find((p) => p.name === 'Springfield' && p.state === 'IL')!.id;
      const soon = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
      const page = { limit: 20, within: 25 };
      await explainOnce(again, [
        ['suggest: prefix "Spr"', (db) => places(db).suggest('Spr')],
        [
          'suggest: "Springfield, IL" (prefix, then similar names to fill)',
          (db) => places(db).suggest('Springfield, IL'),
        ],
        [
          'suggest: typo "Sprngfield" (no prefix match, then similarity among "sp...")',
          (db) => places(db).suggest('Sprngfield'),
        ],
        [
          'suggest: typo "Dpringfield" (nothing shares "dp": names holding "ringfield")',
          (db) => places(db).suggest('Dpringfield'),
        ],
        ['suggest: ZIP "627"', (db) => places(db).suggest('627')],
        [
          'requests: near Springfield, IL within 25',
          (db) => createRequestService(db, places(db)).browse(me, { ...page, near: springfield }),
        ],
        [
          'requests: q "hay bales"',
          (db) => createRequestService(db, places(db)).browse(me, { ...page, q: 'hay bales' }),
        ],
        ['requests: q "4242" (rare)', (db) => createRequestService(db, places(db)).browse(me, { ...page, q: '4242' })],
        [
          'requests: from/to',
          (db) => createRequestService(db, places(db)).browse(me, { ...page, from: soon(10), to: soon(40) }),
        ],
        [
          'rides: near Springfield, IL within 50',
          (db) => createRideService(db, places(db)).browse(me, { ...page, within: 50, near: springfield }),
        ],
        ['rides: q "hay"', (db) => createRideService(db, places(db)).browse(me, { ...page, q: 'hay' })],
        [
          'rides: q "springfield" (rare)',
          (db) => createRideService(db, places(db)).browse(me, { ...page, q: 'springfield' }),
        ],
        [
          'rides: near 10 + from/to + q',
          (db) =>
            createRideService(db, places(db)).browse(me, {
              ...page,
              within: 10,
              near: springfield,
              from: soon(10),
              to: soon(40),
              q: 'hay',
            }),
        ],
      ]);
      await again.close();
    }
  } finally {
    if (server) await stopServer(server);
    // BENCH_KEEP=1 leaves the seeded database for EXPLAIN by hand.
    if (process.env.BENCH_KEEP === '1') console.log(`[bench] kept: ${target.url ?? target.dataDir}`);
    else await target.cleanup();
    console.log(`[bench] done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
}

await main();
