import { sql } from 'drizzle-orm';
import { hashToken } from '../src/server/auth/tokens';
import type { Db } from '../src/server/db/client';
import { serviceFeeCents } from '../src/shared/money';

export const USERS = 1_000;
export const ROWS = 100_000;

/** A syntactically valid argon2id hash: bench users never sign in with a password. */
const DUMMY_HASH = '$argon2id$v=19$m=19456,t=2,p=1$YmVuY2hzYWx0YmVuY2g$0000000000000000000000000000000000000000000';

export const benchToken = (i: number) => `bench-session-token-${String(i).padStart(6, '0')}-rr`;

/** The delivery code of every seeded confirmed booking (the 'complete' pass sends it). */
export const BENCH_DELIVERY_CODE = '480213';
/** Open requests (the oldest) that get two pending offers each, for the 'choose' pass. */
export const CHOOSE_REQUESTS = 10_000;
/** Published reviews: both of each of REVIEWS / 2 completed deliveries (on requests besides the ROWS above). */
export const REVIEWS = 50_000;
/**
 * The user with many reviews (the profile rows of bench:api): the driver of every 25th completed delivery, about
 * 1,000 of them, besides their share of the rest. Never that delivery's requester (see seedReviews).
 */
export const STAR_USER = USERS;

/** USERS users ('bench<n>@example.com') with profiles and live sessions; returns their tokens (index = n - 1). */
export async function seedUsers(db: Db): Promise<string[]> {
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
  return tokens;
}

/**
 * 1,000 users with profiles and live sessions, 100,000 rides and 100,000 requests, in a few set-based statements
 * (generate_series), then VACUUM ANALYZE. Rides spread over the next year with ~1/4 untimed and 10% not active; requests
 * one per second back in time with 10% matched (each with its confirmed booking and that booking's held payment, for
 * the 'complete' pass), and the oldest CHOOSE_REQUESTS open ones with two pending offers each (for 'choose'). A third
 * of the requests carry compensation, and so do every matched one and the oldest 2 * CHOOSE_REQUESTS (so every
 * choose pays and every complete releases). Besides those, REVIEWS / 2 older completed deliveries, each reviewed by
 * both people (REVIEWS published reviews), and every profile's rating counters set from them, so browse cards and
 * offers carry ratings. Returns the session tokens (index = user number - 1).
 */
export async function seed(db: Db): Promise<string[]> {
  const tokens = await seedUsers(db);
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
      case when g % 2 = 0 then current_date + (g % 60) end,
      case when g % 3 = 0 or g % 10 = 0 or g > ${ROWS - 2 * CHOOSE_REQUESTS} then greatest(g % 5000, 1) * 10 end,
      case when g % 10 = 0 then 'matched' else 'open' end, now() - make_interval(secs => g)
    from generate_series(1, ${ROWS}) g join u on u.rn = g % ${USERS}`);
  await seedBookings(db);
  // Choose pays and complete releases on every booking the lifecycle passes act on: their requests carry compensation.
  const unpaid = (await db.execute(sql`
    select count(*)::int as n from bookings b join delivery_requests r on r.id = b.request_id
    where b.status in ('pending', 'confirmed') and coalesce(r.compensation_cents, 0) <= 0`)) as unknown as {
    rows: { n: number }[];
  };
  if (unpaid.rows[0]?.n) throw new Error(`seed: ${unpaid.rows[0].n} offered or confirmed bookings on unpaid requests`);
  await seedHeldPayments(db);
  await seedReviews(db);
  await seedConversations(db);
  // A live database is in steady state: without this, autovacuum's first pass over the fresh rows runs during the
  // measurement and shows up as a pause of a hundred milliseconds or more.
  await db.execute(sql`vacuum analyze`);
  return tokens;
}

/**
 * The conversations of the reviewed deliveries, as a live marketplace has them: MESSAGES_PER_DELIVERY messages each,
 * the sides taking turns, all read, and each side's message notification of them, read. Without them the messages
 * and notifications tables start the message pass empty, and each pool connection keeps the plan it made for a table
 * of one page (a Seq Scan for the send's client_id check, 1-4 ms once the pass had written a thousand messages;
 * auto_explain) while pgbench's connections, made later, plan for the grown table: the ratio compared two plans.
 */
async function seedConversations(db: Db): Promise<void> {
  await db.execute(sql`
    insert into messages (booking_id, sender_id, client_id, body, created_at)
    select b.id, case when k % 2 = 1 then b.driver_id else b.requester_id end, gen_random_uuid(),
      case when k % 2 = 1 then 'On my way, about ' || (k * 7) || ' minutes out.' else 'Thanks, the gate is open.' end,
      b.created_at + make_interval(mins => 10 * k)
    from bookings b cross join generate_series(1, ${MESSAGES_PER_DELIVERY}) k
    where b.status = 'completed'`);
  await db.execute(sql`
    update bookings b set last_message_at = m.at, driver_read_at = m.at, requester_read_at = m.at
    from (select booking_id, max(created_at) as at from messages group by booking_id) m
    where m.booking_id = b.id`);
  await db.execute(sql`
    insert into notifications (user_id, type, data, group_key, created_at, read_at)
    select u.id, 'message', jsonb_build_object('booking_id', b.id, 'request_id', b.request_id,
        'actor_name', p.full_name, 'title', r.title, 'count', ${MESSAGES_PER_DELIVERY / 2}::int),
      'message:' || b.id, b.last_message_at, b.last_message_at + interval '1 hour'
    from bookings b
    join delivery_requests r on r.id = b.request_id
    cross join lateral (values (b.driver_id, b.requester_id), (b.requester_id, b.driver_id)) as side(me, other)
    join users u on u.id = side.me
    join profiles p on p.user_id = side.other
    where b.status = 'completed'`);
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

/** Messages in each seeded conversation (seedConversations). */
const MESSAGES_PER_DELIVERY = 4;

/** Payments per statement in seedHeldPayments: every hold moves the one 'outside' account's balance. */
const PAYMENT_BATCH = 1_000;

/**
 * Every confirmed booking's payment as a paid choose leaves it (src/server/payments/flow.ts): the payments row
 * 'held' (the request's compensation, the fee from serviceFeeCents, the test card 4242), the test provider's
 * succeeded charge under the key payment:<id>:charge, and the ledger's hold: the account held:<id> and one 'hold'
 * transaction (payment:<id>:hold) with its entries, outside -total and held:<id> +total. Only entries are inserted:
 * the database's triggers move the balances and check each transaction at commit (migration 0023). One set-based
 * statement per PAYMENT_BATCH bookings, each its own transaction, so the one 'outside' account is not rewritten
 * 10,000 times in one transaction. The 'complete' pass then releases real held money.
 */
async function seedHeldPayments(db: Db): Promise<void> {
  const comps = (
    (await db.execute(sql`
      select distinct r.compensation_cents::int as c from bookings b join delivery_requests r on r.id = b.request_id
      where b.status = 'confirmed'`)) as unknown as { rows: { c: number | null }[] }
  ).rows.map((r) => r.c ?? 0);
  if (comps.some((c) => c <= 0)) throw new Error('seed: a confirmed booking has a request without compensation');
  const fees = comps.map((c) => serviceFeeCents(c));
  for (;;) {
    const result = (await db.execute(sql`
      with fee (comp, fee) as (
        select * from unnest(${`{${comps.join(',')}}`}::bigint[], ${`{${fees.join(',')}}`}::bigint[])),
      b as materialized (
        select gen_random_uuid() as pid, b.id as booking_id, b.request_id, b.requester_id, b.driver_id, r.title,
          r.compensation_cents as comp, fee.fee, 'ch_test_' || substr(md5(b.id::text), 1, 24) as charge_id,
          b.created_at + interval '1 minute' as at
        from bookings b join delivery_requests r on r.id = b.request_id join fee on fee.comp = r.compensation_cents
        where b.status = 'confirmed' and not exists (select 1 from payments p where p.booking_id = b.id)
        order by b.created_at, b.id limit ${PAYMENT_BATCH}),
      p as (
        insert into payments (id, booking_id, request_id, requester_id, driver_id, title, compensation_cents, fee_cents,
          state, provider, provider_charge_id, card_brand, card_last4, created_at, held_at)
        select pid, booking_id, request_id, requester_id, driver_id, title, comp, fee, 'held', 'test', charge_id,
          'visa', '4242', at, at + interval '300 milliseconds'
        from b),
      c as (
        insert into test_provider_charges (id, idempotency_key, amount_cents, currency, status, card_brand, card_last4,
          metadata, created_at)
        select charge_id, 'payment:' || pid || ':charge', comp + fee, 'usd', 'succeeded', 'visa', '4242',
          jsonb_build_object('payment_id', pid, 'booking_id', booking_id, 'request_id', request_id,
            'transfer_group', 'booking:' || booking_id, 'description', 'RuralRoute delivery: ' || title),
          at + interval '200 milliseconds'
        from b),
      a as (
        insert into ledger_accounts (key, kind, payment_id, created_at)
        select 'held:' || pid, 'held', pid, at + interval '300 milliseconds' from b
        returning id, payment_id),
      t as (
        insert into ledger_transactions (kind, idempotency_key, payment_id, booking_id, created_at)
        select 'hold', 'payment:' || pid || ':hold', pid, booking_id, at + interval '300 milliseconds' from b
        returning id, payment_id),
      e as (
        insert into ledger_entries (transaction_id, account_id, amount)
        select t.id, x.account_id, x.amount
        from b join t on t.payment_id = b.pid join a on a.payment_id = b.pid
          cross join (select id from ledger_accounts where key = 'outside') o
          cross join lateral (values (o.id, -(b.comp + b.fee)), (a.id, b.comp + b.fee)) as x (account_id, amount)
        order by t.id, x.account_id
        returning 1)
      select count(*)::int as n from e`)) as unknown as { rows: { n: number }[] };
    if (!result.rows[0]?.n) break;
  }
}

/**
 * REVIEWS / 2 completed deliveries, older than every other request (so no list above changes), each with its
 * events (offered, chosen, received) and both people's reviews, published together some hours after completion as
 * the double-blind flow leaves them; then every profile's rating_count / rating_sum from the published reviews,
 * as the publishing transaction keeps them. Requester: user g % USERS + 1; driver: STAR_USER for every 25th
 * delivery (g % 25 = 0 never gives requester STAR_USER), else the requester's number + 4.
 */
async function seedReviews(db: Db): Promise<void> {
  const deliveries = REVIEWS / 2;
  const users = sql`select id, substring(email from 6 for position('@' in email) - 6)::int as n from users
    where email like 'bench%@example.com'`;
  await db.execute(sql`
    with u as (${users}),
    g as (select g, ru.id as requester_id, du.id as driver_id,
            date_trunc('second', now()) - interval '2 days' - make_interval(mins => g * 3) as at
          from generate_series(1, ${deliveries}) g
          join u ru on ru.n = g % ${USERS} + 1
          join u du on du.n = case when g % 25 = 0 then ${STAR_USER} else (g % ${USERS} + 4) % ${USERS} + 1 end),
    r as (
      insert into delivery_requests
        (user_id, title, description, pickup_location, delivery_location, compensation_cents, status, created_at)
      select requester_id, 'Delivered parcel ' || g, 'Three crates of apples', 'Orchard ' || (g % 80),
        'Farm ' || (g % 300), (g % 40) * 100, 'completed', at
      from g
      returning id, created_at)
    insert into bookings (request_id, driver_id, requester_id, status, picked_up_at, created_at, ended_at, activity_at)
    select r.id, g.driver_id, g.requester_id, 'completed', g.at + interval '2 hours', g.at + interval '1 minute',
      g.at + interval '5 hours', g.at + interval '5 hours'
    from r join g on g.at = r.created_at`);
  const completed = sql`select id, driver_id, requester_id, created_at, ended_at from bookings
    where status = 'completed'`;
  await db.execute(sql`
    insert into booking_events (booking_id, driver_id, requester_id, actor_id, type, from_status, to_status, created_at)
    select id, driver_id, requester_id, driver_id, 'offered', null, 'pending', created_at from (${completed}) b
    union all
    select id, driver_id, requester_id, requester_id, 'chosen', 'pending', 'confirmed', created_at + interval '1 minute'
    from (${completed}) b
    union all
    select id, driver_id, requester_id, requester_id, 'received', 'confirmed', 'completed', ended_at
    from (${completed}) b`);
  // Mostly good marks, like a real marketplace: per side, 5 (60%), 4 (25%), 3 (10%), 2 and 1 (5%). Two thirds
  // carry a comment, one in thirty a reply. Both of a delivery are published at the same instant.
  await db.execute(sql`
    with b as (select id, driver_id, requester_id, ended_at,
                 row_number() over (order by created_at, id) as k from bookings where status = 'completed'),
    side as (select b.*, s.role, (b.k * 7 + s.salt) % 20 as mark, b.k % 3 as says, b.k % 30 as answers
             from b cross join (values ('driver', 0), ('requester', 11)) as s(role, salt))
    insert into reviews (booking_id, reviewer_id, reviewee_id, reviewer_role, rating, comment, created_at,
                         published_at, reply, replied_at)
    select id,
      case when role = 'driver' then driver_id else requester_id end,
      case when role = 'driver' then requester_id else driver_id end,
      role,
      case when mark < 12 then 5 when mark < 17 then 4 when mark < 19 then 3 when mark = 19 and k % 2 = 0 then 2
           else 1 end,
      case when says > 0 then case when role = 'driver' then 'Ready at the gate, boxes well packed.'
                                   else 'On time and careful with the crates. Would book again.' end end,
      ended_at + make_interval(hours => case when role = 'driver' then 1 else 3 end),
      ended_at + interval '3 hours',
      case when says > 0 and answers = 1 then 'Thank you, see you next market day!' end,
      case when says > 0 and answers = 1 then ended_at + interval '6 hours' end
    from side`);
  await db.execute(sql`
    update profiles p set rating_count = a.n, rating_sum = a.total
    from (select reviewee_id, count(*)::int as n, sum(rating)::int as total from reviews
          where published_at is not null group by reviewee_id) a
    where p.user_id = a.reviewee_id`);
}
