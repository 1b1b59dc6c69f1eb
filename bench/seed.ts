import { sql } from 'drizzle-orm';
import { hashToken } from '../src/server/auth/tokens';
import type { Db } from '../src/server/db/client';

export const USERS = 1_000;
export const ROWS = 100_000;

/** A syntactically valid argon2id hash: bench users never sign in with a password. */
const DUMMY_HASH = '$argon2id$v=19$m=19456,t=2,p=1$YmVuY2hzYWx0YmVuY2g$0000000000000000000000000000000000000000000';

export const benchToken = (i: number) => `bench-session-token-${String(i).padStart(6, '0')}-rr`;

/** The delivery code of every seeded confirmed booking (the 'complete' pass sends it). */
export const BENCH_DELIVERY_CODE = '480213';
/** Open requests (the oldest) that get two pending offers each, for the 'choose' pass. */
export const CHOOSE_REQUESTS = 10_000;

/**
 * 1,000 users with profiles and live sessions, 100,000 rides and 100,000 requests, in a few set-based statements
 * (generate_series), then VACUUM ANALYZE. Rides spread over the next year with ~1/4 untimed and 10% not active; requests
 * one per second back in time with 10% matched (each with its confirmed booking, for the 'complete' pass), and the
 * oldest CHOOSE_REQUESTS open ones with two pending offers each (for 'choose'). Returns the session tokens
 * (index = user number - 1).
 */
export async function seed(db: Db): Promise<string[]> {
  const tokens = Array.from({ length: USERS }, (_, i) => benchToken(i + 1));
  await db.execute(sql`
    insert into users (email, password_hash, age_confirmed_at)
    select 'bench' || g || '@example.com', ${DUMMY_HASH}, now() from generate_series(1, ${USERS}) g`);
  await db.execute(sql`
    insert into profiles (user_id, full_name)
    select id, 'Bench User ' || substring(email from 6 for position('@' in email) - 6) from users
    where email like 'bench%@example.com'`);
  await db.execute(sql`
    insert into sessions (token_hash, user_id, expires_at)
    select h.hash, u.id, now() + interval '30 days'
    from unnest(${`{${tokens.map(hashToken).join(',')}}`}::text[]) with ordinality as h(hash, n)
    join users u on u.email = 'bench' || h.n || '@example.com'`);
  await db.execute(sql`
    with u as (select id, row_number() over (order by email) - 1 as rn from users where email like 'bench%')
    insert into rides (user_id, origin, destination, departure_date, departure_time, available_space, notes, status)
    select u.id, 'Town ' || (g % 500), 'Market ' || (g % 97), current_date + (g % 365),
      case when g % 4 = 0 then null else make_time(6 + g % 14, (g * 7) % 60, 0) end,
      'Back seat and trunk', case when g % 3 = 0 then 'Leaving from the farm gate, call ahead' end,
      case when g % 10 = 0 then 'completed' else 'active' end
    from generate_series(1, ${ROWS}) g join u on u.rn = g % ${USERS}`);
  await db.execute(sql`
    with u as (select id, row_number() over (order by email) - 1 as rn from users where email like 'bench%')
    insert into delivery_requests
      (user_id, title, description, pickup_location, delivery_location, needed_by_date, compensation_cents, status,
       created_at)
    select u.id, 'Parcel ' || g, 'Two boxes of preserves, fragile', 'Co-op ' || (g % 50), 'Farm ' || (g % 300),
      case when g % 2 = 0 then current_date + (g % 60) end, case when g % 3 = 0 then (g % 5000) * 10 end,
      case when g % 10 = 0 then 'matched' else 'open' end, now() - make_interval(secs => g)
    from generate_series(1, ${ROWS}) g join u on u.rn = g % ${USERS}`);
  await seedBookings(db);
  // A live database is in steady state: without this, autovacuum's first pass over the fresh rows runs during the
  // measurement and shows up as a pause of a hundred milliseconds or more.
  await db.execute(sql`vacuum analyze`);
  return tokens;
}

/**
 * Bookings as the lifecycle leaves them, with their events: a confirmed one (code BENCH_DELIVERY_CODE) on every
 * matched request, and two pending offers on each of the oldest CHOOSE_REQUESTS open requests. Drivers are the
 * owner's number + 2 and + 3, so they never meet the accept pass (owner + 1) or their own request.
 */
async function seedBookings(db: Db): Promise<void> {
  const users = sql`select id, substring(email from 6 for position('@' in email) - 6)::int as n from users
    where email like 'bench%@example.com'`;
  await db.execute(sql`
    with u as (${users}),
    r as (select r.id, r.user_id, r.created_at, u.n from delivery_requests r join u on u.id = r.user_id
          where r.status = 'matched')
    insert into bookings (request_id, driver_id, requester_id, status, delivery_code, created_at)
    select r.id, d.id, r.user_id, 'confirmed', ${BENCH_DELIVERY_CODE}, r.created_at + interval '1 minute'
    from r join u d on d.n = (r.n + 1) % ${USERS} + 1`);
  await db.execute(sql`
    with u as (${users}),
    r as (select r.id, r.user_id, r.created_at, u.n from delivery_requests r join u on u.id = r.user_id
          where r.status = 'open' order by r.created_at, r.id limit ${CHOOSE_REQUESTS})
    insert into bookings (request_id, driver_id, requester_id, status, created_at)
    select r.id, d.id, r.user_id, 'pending', r.created_at + make_interval(mins => k)
    from r cross join generate_series(1, 2) k join u d on d.n = (r.n + k) % ${USERS} + 1`);
  await db.execute(sql`
    insert into booking_events (booking_id, driver_id, requester_id, actor_id, type, from_status, to_status, created_at)
    select id, driver_id, requester_id, driver_id, 'offered', null, 'pending', created_at from bookings`);
  await db.execute(sql`
    insert into booking_events (booking_id, driver_id, requester_id, actor_id, type, from_status, to_status, created_at)
    select id, driver_id, requester_id, requester_id, 'chosen', 'pending', 'confirmed', created_at + interval '1 minute'
    from bookings where status = 'confirmed'`);
}
