import { aliasedTable, and, count, desc, eq, ne, sql } from 'drizzle-orm';
import { earliestToday } from '../../shared/dates';
import type { Activity, Dashboard } from '../../shared/marketplace';
import type { Db } from '../db/client';
import { bookings, deliveryRequests, profiles, rides } from '../db/schema';

const ACTIVITY_LIMIT = 10;

const driverProfile = aliasedTable(profiles, 'driver_profile');

export function createDashboardService(db: Db) {
  async function stats(userId: string): Promise<Dashboard['stats']> {
    const [activeRides, openRequests, asDriver, asRequester] = await Promise.all([
      db
        .select({ n: count() })
        .from(rides)
        .where(
          and(
            eq(rides.userId, userId),
            sql`${rides.status} = 'active'`,
            sql`${rides.departureDate} >= ${earliestToday()}::date`,
          ),
        ),
      db
        .select({ n: count() })
        .from(deliveryRequests)
        .where(and(eq(deliveryRequests.userId, userId), sql`${deliveryRequests.status} = 'open'`)),
      db
        .select({ n: count(), completed: sql<number>`count(*) filter (where ${bookings.status} = 'completed')::int` })
        .from(bookings)
        .where(eq(bookings.driverId, userId)),
      // A driver never books their own request, but the guard keeps the two halves disjoint whatever the data.
      db
        .select({ n: count(), completed: sql<number>`count(*) filter (where ${bookings.status} = 'completed')::int` })
        .from(bookings)
        .innerJoin(deliveryRequests, eq(deliveryRequests.id, bookings.requestId))
        .where(and(eq(deliveryRequests.userId, userId), ne(bookings.driverId, userId))),
    ]);
    return {
      active_rides: activeRides[0]?.n ?? 0,
      open_requests: openRequests[0]?.n ?? 0,
      total_bookings: (asDriver[0]?.n ?? 0) + (asRequester[0]?.n ?? 0),
      completed: (asDriver[0]?.completed ?? 0) + (asRequester[0]?.completed ?? 0),
    };
  }

  /** My latest events of each kind, merged, newest first, at most ACTIVITY_LIMIT. */
  async function activity(userId: string): Promise<Activity[]> {
    const [posted, created, acceptedMine, made] = await Promise.all([
      db
        .select({ id: rides.id, at: rides.createdAt, origin: rides.origin, destination: rides.destination })
        .from(rides)
        .where(eq(rides.userId, userId))
        .orderBy(desc(rides.createdAt))
        .limit(ACTIVITY_LIMIT),
      db
        .select({ id: deliveryRequests.id, at: deliveryRequests.createdAt, title: deliveryRequests.title })
        .from(deliveryRequests)
        .where(and(eq(deliveryRequests.userId, userId), ne(deliveryRequests.status, 'deleted')))
        .orderBy(desc(deliveryRequests.createdAt), desc(deliveryRequests.id))
        .limit(ACTIVITY_LIMIT),
      db
        .select({ id: bookings.id, at: bookings.createdAt, title: deliveryRequests.title, who: driverProfile.fullName })
        .from(bookings)
        .innerJoin(deliveryRequests, eq(deliveryRequests.id, bookings.requestId))
        .innerJoin(driverProfile, eq(driverProfile.userId, bookings.driverId))
        .where(and(eq(deliveryRequests.userId, userId), ne(deliveryRequests.status, 'deleted')))
        .orderBy(desc(bookings.createdAt))
        .limit(ACTIVITY_LIMIT),
      db
        .select({ id: bookings.id, at: bookings.createdAt, title: deliveryRequests.title, who: profiles.fullName })
        .from(bookings)
        .innerJoin(deliveryRequests, eq(deliveryRequests.id, bookings.requestId))
        .innerJoin(profiles, eq(profiles.userId, deliveryRequests.userId))
        .where(eq(bookings.driverId, userId))
        .orderBy(desc(bookings.createdAt), desc(bookings.id))
        .limit(ACTIVITY_LIMIT),
    ]);
    const events: (Activity & { time: number })[] = [
      ...posted.map((r) => ({ ...event('ride_posted', r), origin: r.origin, destination: r.destination })),
      ...created.map((r) => ({ ...event('request_created', r), title: r.title })),
      ...acceptedMine.map((r) => ({ ...event('request_accepted', r), title: r.title, driver_name: r.who })),
      ...made.map((r) => ({ ...event('booking_made', r), title: r.title, requester_name: r.who })),
    ];
    return events
      .sort((a, b) => b.time - a.time || (a.id < b.id ? 1 : -1))
      .slice(0, ACTIVITY_LIMIT)
      .map(({ time: _time, ...rest }) => rest);
  }

  async function load(userId: string): Promise<Dashboard> {
    const [s, a] = await Promise.all([stats(userId), activity(userId)]);
    return { stats: s, activity: a };
  }

  return { load };
}

function event<T extends Activity['type']>(type: T, row: { id: string; at: Date }) {
  return { id: `${type}:${row.id}`, type, at: row.at.toISOString(), time: row.at.getTime() };
}

export type DashboardService = ReturnType<typeof createDashboardService>;
