import { desc, eq, sql } from 'drizzle-orm';
import { hashToken } from '../src/server/auth/tokens';
import { createBookingService } from '../src/server/bookings/service';
import { createDashboardService } from '../src/server/dashboard/service';
import type { Database } from '../src/server/db/client';
import type { Page } from '../src/shared/marketplace';
import { pageOf, type PageJson } from '../src/server/core/page-json';
import * as schema from '../src/server/db/schema';
import { createPlaceService } from '../src/server/places';
import { createRequestService } from '../src/server/requests/service';
import { createProfileService } from '../src/server/reviews/profiles';
import { createRideService } from '../src/server/rides/service';
import { loggingDb, type Captured } from '../src/server/test/logging-db';

/**
 * Runs the real list queries of the services once through a logging drizzle instance, then prints
 * EXPLAIN ANALYZE of each: the proof that every list is an index range scan on the seeded 100,000 rows.
 */
export async function explainListQueries(
  database: Database,
  tokens: string[],
  prep: { deepRides: string; deepRequests: string; profileUser: string },
) {
  const { db, captured, labelNext } = await loggingDb(database);

  // A user who made bookings during the accept run, so that their bookings list is not empty.
  const [driver] = await db
    .select({ userId: schema.bookings.driverId })
    .from(schema.bookings)
    .orderBy(desc(schema.bookings.createdAt))
    .limit(1);
  const [session] = await db
    .select({ userId: schema.sessions.userId })
    .from(schema.sessions)
    .where(eq(schema.sessions.tokenHash, hashToken(tokens[0] ?? '')));
  const me = driver?.userId ?? session?.userId ?? '';
  const places = createPlaceService(db);
  const rides = createRideService(db, places);
  const requests = createRequestService(db, places);
  const bookings = createBookingService(db);
  const profiles = createProfileService(db);
  const next = async <T>(page: Promise<Page<T> | PageJson>) => pageOf(await page).next_cursor ?? undefined;
  const steps: [string, () => Promise<unknown>][] = [
    ['browse rides, first page', () => rides.browse(me, { limit: 20 })],
    ['browse rides, deep page', () => rides.browse(me, { limit: 20, cursor: prep.deepRides })],
    ['my rides, first page', () => rides.listMine(me, { limit: 20 })],
    ['browse requests, first page', () => requests.browse(me, { limit: 20 })],
    ['browse requests, deep page', () => requests.browse(me, { limit: 20, cursor: prep.deepRequests })],
    ['my requests, first page', () => requests.listMine(me, { limit: 20 })],
    ['my bookings, first page', () => bookings.listMine(me, { limit: 20 })],
    ['bookings on my requests, first page', () => bookings.listMine(me, { limit: 20 }, 'requester')],
    ['dashboard (counts and recent activity)', () => createDashboardService(db).load(me)],
    // The user with the most reviews: their completed deliveries counted per role, and their reviews' first page.
    ['profile (completed deliveries per role, rating)', () => profiles.profile(prep.profileUser)],
    ['profile reviews, first page', () => profiles.reviews(prep.profileUser, { limit: 20 })],
  ];
  for (const [name, step] of steps) {
    labelNext(name);
    await step();
  }
  // Second pages of the "my" lists: the cursor comparison after the user_id equality must stay in the index.
  labelNext('');
  const cursors = {
    rides: await next(rides.listMine(me, { limit: 20 })),
    requests: await next(requests.listMine(me, { limit: 20 })),
    bookings: await next(bookings.listMine(me, { limit: 20 })),
    reviews: await next(profiles.reviews(prep.profileUser, { limit: 20 })),
  };
  for (const [name, step] of [
    ['my rides, second page', () => rides.listMine(me, { limit: 20, cursor: cursors.rides })],
    ['my requests, second page', () => requests.listMine(me, { limit: 20, cursor: cursors.requests })],
    ['my bookings, second page', () => bookings.listMine(me, { limit: 20, cursor: cursors.bookings })],
    ['profile reviews, second page', () => profiles.reviews(prep.profileUser, { limit: 20, cursor: cursors.reviews })],
  ] as const) {
    labelNext(name);
    await step();
  }

  console.log(
    '\n[bench] EXPLAIN ANALYZE of the list queries as the API runs them (prepared, generic plan), on the seeded data:',
  );
  let n = 0;
  for (const c of captured) {
    if (c.label === '') continue;
    n += 1;
    const lines = await explainGeneric(database, c, { analyze: true, name: `bench_explain_${n}` });
    console.log(`\n-- ${c.label}\n${lines.map((l) => `   ${l}`).join('\n')}`);
  }
}

/**
 * The plan of one captured statement as the API runs it: prepared, with the generic plan the pool forces
 * (src/server/db/pool.ts), executed with its captured arguments; `settings` are SET LOCAL first (e.g.
 * enable_seqscan = off). Returns the plan's lines, without costs.
 */
export async function explainGeneric(
  database: Database,
  c: Captured,
  {
    analyze = false,
    name = 'rr_explain',
    settings = [],
  }: { analyze?: boolean; name?: string; settings?: string[] } = {},
): Promise<string[]> {
  // One connection (a transaction) for SET LOCAL, PREPARE and EXECUTE alike.
  return database.db.transaction(async (tx) => {
    for (const setting of ['plan_cache_mode = force_generic_plan', ...settings])
      await tx.execute(sql.raw(`set local ${setting}`));
    await tx.execute(sql.raw(`prepare ${name} as ${c.query}`));
    const args = c.params.length ? `(${c.params.map(literal).join(', ')})` : '';
    const options = analyze ? 'analyze, costs off' : 'costs off';
    const result = await tx.execute(sql.raw(`explain (${options}) execute ${name}${args}`));
    await tx.execute(sql.raw(`deallocate ${name}`));
    return (result as unknown as { rows: { 'QUERY PLAN': string }[] }).rows.map((r) => r['QUERY PLAN']);
  });
}

/** EXECUTE takes literal arguments: quote them (bench data only, never user input). */
function literal(v: unknown): string {
  return typeof v === 'number' ? String(v) : `'${String(v).replace(/'/g, "''")}'`;
}

export { loggingDb, type Captured };
