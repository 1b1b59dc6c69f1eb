/**
 * `npm run bench:export` (real PostgreSQL: `bash scripts/with-postgres.sh npm run bench:export`): 'Download my data'
 * for an account with 10,000 rows, which must take under 5 seconds. Seeds the usual bench marketplace
 * (bench/seed.ts: 1,000 users, 100,000 rides and requests, bookings and reviews) on PostgreSQL, or on PGlite with
 * BENCH_EXPORT_BACKGROUND=1 (=0 skips it anywhere), then one account with BENCH_EXPORT_ROWS rows (default 10,000) spread evenly over its rides, requests, bookings
 * (half as driver on neighbours' requests, half as requester on its own, each with its events), messages (both
 * ways) and notifications, with a session checked just now. Then it calls GET /api/account/export through the real
 * app (every middleware; gzip as a browser asks) BENCH_EXPORT_RUNS times (default 5) and prints p50 and max, the
 * file's size with and without compression, and each section's length.
 */
import { loadavg } from 'node:os';
import { gunzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { EXPORT_SECTIONS } from '../src/shared/account';
import { createApp } from '../src/server/app';
import { hashToken } from '../src/server/auth/tokens';
import { openDatabase, type Db } from '../src/server/db/client';
import { rowsOf } from '../src/server/db/result-rows';
import { readEnv } from '../src/server/env';
import { createTarget, percentile, printTable } from './lib';
import { seed } from './seed';

const baseUrl = process.env.DATABASE_URL;
const ROWS = Number(process.env.BENCH_EXPORT_ROWS ?? 10_000);
const RUNS = Number(process.env.BENCH_EXPORT_RUNS ?? 5);
/** The marketplace around the account: on by default on PostgreSQL; on PGlite its seed takes about 15 minutes. */
const BACKGROUND = process.env.BENCH_EXPORT_BACKGROUND ? process.env.BENCH_EXPORT_BACKGROUND !== '0' : Boolean(baseUrl);
const LIMIT_MS = 5_000;
const NEIGHBOURS = 100;
const TOKEN = 'bench-export-session-token-rr';
const DUMMY_HASH = '$argon2id$v=19$m=19456,t=2,p=1$YmVuY2hzYWx0YmVuY2g$0000000000000000000000000000000000000000000';

/**
 * The account 'exporter@example.com' and NEIGHBOURS people it deals with; ROWS / 5 each of its rides, requests,
 * bookings, messages and notifications. Set-based statements (generate_series), like bench/seed.ts.
 */
async function seedAccount(db: Db): Promise<void> {
  const each = Math.floor(ROWS / 5);
  const half = Math.floor(each / 2);
  await db.execute(sql`
    insert into users (email, password_hash, age_confirmed_at)
    select 'neighbour' || g || '@example.com', ${DUMMY_HASH}, now() from generate_series(1, ${NEIGHBOURS}) g
    union all select 'exporter@example.com', ${DUMMY_HASH}, now()`);
  await db.execute(sql`
    insert into profiles (user_id, full_name, about)
    select id, case when email = 'exporter@example.com' then 'Erin Exporter'
      else 'Neighbour ' || substring(email from 10 for position('@' in email) - 10) end,
      case when email = 'exporter@example.com' then 'I drive to the market on Fridays.' end
    from users where email like 'neighbour%@example.com' or email = 'exporter@example.com'`);
  const me = sql`(select id from users where email = 'exporter@example.com')`;
  const neighbours = sql`select id, row_number() over (order by email) as n from users
    where email like 'neighbour%@example.com'`;
  await db.execute(sql`
    insert into sessions (token_hash, user_id, expires_at, user_agent, verified_at)
    values (${hashToken(TOKEN)}, ${me}, now() + interval '30 days',
      'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0', now() + interval '1 hour')`);
  await db.execute(sql`
    insert into rides (user_id, origin, destination, departure_date, departure_time, available_space, notes, status)
    select ${me}, 'Town ' || (g % 50), 'Market ' || (g % 17), current_date + (g % 365),
      case when g % 4 = 0 then null else make_time(6 + g % 14, (g * 7) % 60, 0) end, 'Back seat and trunk',
      case when g % 3 = 0 then 'Leaving from the farm gate, call ahead' end,
      case when g % 10 = 0 then 'completed' else 'active' end
    from generate_series(1, ${each}) g`);
  // My requests, newest first; the oldest `half` get one booking each (as requester).
  await db.execute(sql`
    insert into delivery_requests (user_id, title, description, pickup_location, delivery_location, needed_by_date,
      compensation_cents, status, created_at)
    select ${me}, 'My parcel ' || g, 'Two boxes of preserves, fragile', 'Co-op ' || (g % 50), 'Farm ' || (g % 300),
      case when g % 2 = 0 then current_date + (g % 60) end, case when g % 3 = 0 then (g % 5000) * 10 end,
      case when g <= ${half} and g % 3 = 1 then 'matched' when g <= ${half} and g % 3 = 2 then 'completed'
        else 'open' end,
      now() - make_interval(mins => g)
    from generate_series(1, ${each}) g`);
  // Neighbours' requests I booked (as driver): not my rows, but my bookings point to them.
  await db.execute(sql`
    with u as (${neighbours})
    insert into delivery_requests (user_id, title, description, pickup_location, delivery_location, status, created_at)
    select u.id, 'Their parcel ' || g, 'A crate of apples', 'Orchard ' || (g % 80), 'Farm ' || (g % 300),
      case when g % 3 = 1 then 'matched' when g % 3 = 2 then 'completed' else 'open' end,
      now() - make_interval(mins => g)
    from generate_series(1, ${each - half}) g join u on u.n = g % ${NEIGHBOURS} + 1`);
  // One booking per request above: pending, confirmed or completed by the request's status.
  await db.execute(sql`
    with u as (${neighbours}),
    mine as (select r.id, r.status, r.created_at, row_number() over (order by r.created_at) as k
             from delivery_requests r where r.user_id = ${me} and r.title like 'My parcel %'
               and substring(r.title from 11)::int <= ${half}),
    theirs as (select r.id, r.user_id, r.status, r.created_at from delivery_requests r
               where r.title like 'Their parcel %')
    insert into bookings (request_id, driver_id, requester_id, status, delivery_code, picked_up_at, created_at,
      ended_at, activity_at)
    select x.id, x.driver_id, x.requester_id,
      case x.status when 'matched' then 'confirmed' when 'completed' then 'completed' else 'pending' end,
      case when x.status = 'matched' then '480213' end,
      case when x.status = 'completed' then x.created_at + interval '2 hours' end,
      x.created_at + interval '1 minute',
      case when x.status = 'completed' then x.created_at + interval '5 hours' end,
      x.created_at + interval '5 hours'
    from (select m.id, u.id as driver_id, ${me} as requester_id, m.status, m.created_at
          from mine m join u on u.n = m.k % ${NEIGHBOURS} + 1
          union all
          select t.id, ${me}, t.user_id, t.status, t.created_at from theirs t) x`);
  const mineBookings = sql`select * from bookings where driver_id = ${me} or requester_id = ${me}`;
  await db.execute(sql`
    insert into booking_events (booking_id, driver_id, requester_id, actor_id, type, from_status, to_status, created_at)
    select id, driver_id, requester_id, driver_id, 'offered', null, 'pending', created_at from (${mineBookings}) b
    union all
    select id, driver_id, requester_id, requester_id, 'chosen', 'pending', 'confirmed', created_at + interval '1 minute'
    from (${mineBookings}) b where status in ('confirmed', 'completed')
    union all
    select id, driver_id, requester_id, requester_id, 'received', 'confirmed', 'completed', ended_at
    from (${mineBookings}) b where status = 'completed'`);
  await db.execute(sql`
    with b as (select id, driver_id, requester_id, created_at, row_number() over (order by id) as k
               from (${mineBookings}) x)
    insert into messages (booking_id, sender_id, client_id, body, created_at)
    select b.id, case when g % 2 = 0 then b.driver_id else b.requester_id end, gen_random_uuid(),
      'Message ' || g || ': the gate code is the usual one, see you at nine.',
      b.created_at + make_interval(mins => 10 + g)
    from generate_series(1, ${each}) g
    join b on b.k = g % (select count(*) from b) + 1`);
  await db.execute(sql`
    insert into notifications (user_id, type, data, created_at, read_at)
    select ${me}, (array['offer_received', 'message', 'offer_chosen', 'booking_cancelled'])[g % 4 + 1],
      jsonb_build_object('actor_name', 'Neighbour ' || (g % ${NEIGHBOURS} + 1), 'title', 'My parcel ' || g,
        'request_id', gen_random_uuid(), 'booking_id', gen_random_uuid(), 'reason', 'plans_changed'),
      now() - make_interval(mins => g), case when g % 3 = 0 then now() end
    from generate_series(1, ${each}) g`);
  await db.execute(sql`vacuum analyze`);
}

async function counts(db: Db): Promise<Record<string, number>> {
  const me = sql`(select id from users where email = 'exporter@example.com')`;
  const [row] = rowsOf<Record<string, number>>(
    await db.execute(sql`select
      (select count(*)::int from rides where user_id = ${me}) as rides,
      (select count(*)::int from delivery_requests where user_id = ${me}) as requests,
      (select count(*)::int from bookings where driver_id = ${me} or requester_id = ${me}) as bookings,
      (select count(*)::int from booking_events where driver_id = ${me} or requester_id = ${me}) as booking_events,
      (select count(*)::int from messages m join bookings b on b.id = m.booking_id
        where b.driver_id = ${me} or b.requester_id = ${me}) as messages,
      (select count(*)::int from notifications where user_id = ${me}) as notifications`),
  );
  return row ?? {};
}

async function main() {
  console.log(
    `load average before: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log(`database: ${baseUrl ? 'real PostgreSQL' : 'embedded PGlite'}; ${ROWS} rows for the account`);
  const target = await createTarget(baseUrl);
  const database = await openDatabase({ url: target.url, dataDir: target.dataDir });
  const app = createApp({
    db: database.db,
    env: readEnv({
      NODE_ENV: 'production',
      DATA_DIR: target.dataDir || '/tmp',
      WRITE_LIMIT_PER_USER_MAX: '1000000',
      JOBS_POLL_MS: '3600000',
      REVIEW_SWEEP_SECONDS: '3600',
    }),
    notifications: database.notifications,
  });
  try {
    let started = Date.now();
    if (BACKGROUND) {
      await seed(database.db);
      console.log(`seeded the bench marketplace in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
    started = Date.now();
    await seedAccount(database.db);
    console.log(`seeded the account in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const rows = await counts(database.db);
    console.log(rows);

    const get = (encoding: string) =>
      app.request('http://localhost/api/account/export', {
        headers: { authorization: `Bearer ${TOKEN}`, 'accept-encoding': encoding },
      });
    const plain = await get('identity');
    if (plain.status !== 200) throw new Error(`export answered ${plain.status}: ${await plain.text()}`);
    const text = await plain.text();
    const doc = JSON.parse(text) as Record<string, unknown>;
    const times: number[] = [];
    let gzipped = 0;
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      const res = await get('gzip');
      const body = Buffer.from(await res.arrayBuffer());
      times.push(performance.now() - t0);
      if (res.status !== 200) throw new Error(`export answered ${res.status}`);
      gzipped = body.length;
      if (res.headers.get('content-encoding') === 'gzip') gunzipSync(body);
    }
    times.sort((a, b) => a - b);
    printTable([
      {
        runs: RUNS,
        'p50 ms': percentile(times, 50).toFixed(0),
        'max ms': times.at(-1)!.toFixed(0),
        'size KB': (Buffer.byteLength(text) / 1024).toFixed(0),
        'gzip KB': (gzipped / 1024).toFixed(0),
      },
    ]);
    printTable(
      EXPORT_SECTIONS.map((key) => ({
        section: key,
        items: Array.isArray(doc[key]) ? (doc[key] as unknown[]).length : 'object',
      })),
    );
    const worst = times.at(-1)!;
    console.log(worst < LIMIT_MS ? `OK: every export under ${LIMIT_MS / 1000} s` : `TOO SLOW: ${worst.toFixed(0)} ms`);
    if (worst >= LIMIT_MS) process.exitCode = 1;
  } finally {
    await app.close();
    await database.close();
    await target.cleanup();
  }
}

await main();
