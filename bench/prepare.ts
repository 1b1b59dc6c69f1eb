import { sql } from 'drizzle-orm';
import type { Database } from '../src/server/db/client';
import { encodeCursor } from '../src/server/db/cursor';
import { USERS } from './seed';

/**
 * How the seeded lifecycle bookings (prepare's `chooses` and `completes`) are shared out, so that no booking is moved
 * twice: bench:api's steady 100 req/s passes (BENCH_WRITE_ROUNDS rounds of each) take them from the start, bench/pgbench.ts records and replays its
 * ceiling on pairs from CEILING_FROM on, and bench:api's closed-loop passes take them from CLOSED_LOOP_FROM on (the
 * message passes write in confirmed bookings from the end of the list, leaving their status as it is).
 */
export const LIFECYCLE_SHARES = { ceilingFrom: 3000, closedLoopFrom: 5000, closedLoopTo: -300 } as const;

/** The multipart form boundary of 'Complete delivery' as the bench sends it. */
export const FORM_BOUNDARY = 'rr-bench-boundary';
/** 'Complete delivery' as the browser sends it without a photo: multipart with the code alone. */
export const completeForm = (code: string) =>
  `--${FORM_BOUNDARY}\r\nContent-Disposition: form-data; name="code"\r\n\r\n${code}\r\n--${FORM_BOUNDARY}--\r\n`;

/** Both drivers answer db.execute with `{ rows }`; the shared Db type leaves the result untyped. */
const rows = async <T>(db: Database['db'], query: ReturnType<typeof sql>) =>
  ((await db.execute(query)) as unknown as { rows: T[] }).rows;

/**
 * What bench:api and bench/pgbench.ts send, read from the seeded data (bench/seed.ts): deep-page cursors (~500 pages
 * in), accept pairs, the lifecycle's bookings and the profile user, read straight from the seeded data so that no
 * benchmark time goes to paging there.
 */
export async function prepare(db: Database['db']) {
  const [ride] = await rows<{ d: string; priority: boolean; t: string; id: string }>(
    db,
    sql`select departure_date::text as d, priority, coalesce(departure_time, time '24:00')::text as t, id::text as id
        from rides where status = 'active' and departure_date >= current_date - 1
        order by departure_date, not priority, coalesce(departure_time, time '24:00'), id offset 9999 limit 1`,
  );
  const [request] = await rows<{ priority: boolean; at: string; id: string }>(
    db,
    sql`select priority, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at, id::text as id
        from delivery_requests where status = 'open'
        order by date_trunc('hour', created_at at time zone 'UTC') desc, priority desc, created_at desc, id desc offset 9999 limit 1`,
  );
  if (!ride || !request) throw new Error('seed produced too few rows for a deep page');
  // The profile rows read the user with the most published reviews.
  const [reviewed] = await rows<{ id: string; n: number }>(
    db,
    sql`select user_id::text as id, rating_count as n from profiles order by rating_count desc limit 1`,
  );
  if (!reviewed || reviewed.n < 100) throw new Error('seed produced no user with many reviews');
  const owners = await rows<{ id: string; owner: number }>(
    db,
    sql`select r.id::text as id, substring(u.email from 6 for position('@' in u.email) - 6)::int as owner
        from delivery_requests r join users u on u.id = r.user_id where r.status = 'open' order by r.created_at desc`,
  );
  const userNumber = (column: string) => sql.raw(`substring(${column} from 6 for position('@' in ${column}) - 6)::int`);
  // The lifecycle's bookings are taken in a shuffled (but fixed) order, as people act: in the seed's order, each
  // request's owner n has drivers n + 1 and n + 2 and the next request is owner n + 1's, so consecutive moves shared a
  // person, and each waited for the previous one's commit on that person's event sequence (events/outbox.ts), a
  // chain through the whole run that real traffic does not make.
  // choose: the first offer of each request with offers (one choose per request), as its requester.
  const chooses = await rows<{ id: string; n: number }>(
    db,
    sql`select * from (select distinct on (b.request_id) b.id::text as id, ${userNumber('u.email')} as n,
          b.created_at from bookings b join users u on u.id = b.requester_id where b.status = 'pending'
          order by b.request_id, b.created_at) first_offers order by md5(id)`,
  );
  // complete: each confirmed booking, as its driver.
  const completes = await rows<{ id: string; n: number }>(
    db,
    sql`select b.id::text as id, ${userNumber('u.email')} as n from bookings b
        join users u on u.id = b.driver_id where b.status = 'confirmed' order by md5(b.id::text)`,
  );
  return {
    deepRides: encodeCursor([ride.d, ride.priority ? '1' : '0', ride.t, ride.id]),
    deepRequests: encodeCursor([request.priority ? '1' : '0', request.at, request.id]),
    // Driver = the next user after the owner: never their own request, never the same pair twice.
    acceptPairs: owners.map((o) => ({ requestId: o.id, driver: o.owner % USERS })),
    // Token index = user number - 1.
    chooses: chooses.map((c) => ({ id: c.id, token: c.n - 1 })),
    completes: completes.map((c) => ({ id: c.id, token: c.n - 1 })),
    profileUser: reviewed.id,
    profileReviews: reviewed.n,
  };
}
