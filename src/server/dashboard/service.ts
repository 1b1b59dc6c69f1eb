import { aliasedTable, and, count, desc, eq, ne, sql } from 'drizzle-orm';
import { earliestToday } from '../../shared/dates';
import type { BookingEventType } from '../../shared/lifecycle';
import type { Activity, Dashboard } from '../../shared/marketplace';
import type { Db } from '../db/client';
import { bookingEvents, bookings, deliveryRequests, profiles, rides } from '../db/schema';

const ACTIVITY_LIMIT = 10;

const driverProfile = aliasedTable(profiles, 'driver_profile');
const actorProfile = aliasedTable(profiles, 'actor_profile');

/** Bookings on one side: one index range ((driver_id | requester_id, created_at, id)) each. */
const bookingCounts = (db: Db, party: typeof bookings.driverId | typeof bookings.requesterId, userId: string) =>
  db
    .select({ n: count(), completed: sql<number>`count(*) filter (where ${bookings.status} = 'completed')::int` })
    .from(bookings)
    .where(eq(party, userId));

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
      // The two sides are disjoint: a CHECK keeps a driver off their own request.
      bookingCounts(db, bookings.driverId, userId),
      bookingCounts(db, bookings.requesterId, userId),
    ]);
    return {
      active_rides: activeRides[0]?.n ?? 0,
      open_requests: openRequests[0]?.n ?? 0,
      total_bookings: (asDriver[0]?.n ?? 0) + (asRequester[0]?.n ?? 0),
      bookings_as_driver: asDriver[0]?.n ?? 0,
      completed: (asDriver[0]?.completed ?? 0) + (asRequester[0]?.completed ?? 0),
    };
  }

  /**
   * Lifecycle steps on my bookings, newest first, from the events table: each side is one backward range scan of
   * its partial index (schema.ts), whose predicate these filters repeat literally so the planner picks it. Offers
   * are left to request_accepted / booking_made; the requester is not told once per declined offer what they did
   * once (other_chosen, request_withdrawn).
   */
  const lifecycleSide = (side: 'driver' | 'requester', userId: string) => {
    const party = side === 'driver' ? bookingEvents.driverId : bookingEvents.requesterId;
    const shown =
      side === 'driver'
        ? sql`${bookingEvents.type} <> 'offered'`
        : sql`${bookingEvents.type} not in ('offered', 'other_chosen', 'request_withdrawn')`;
    return db
      .select({
        id: bookingEvents.id,
        at: bookingEvents.createdAt,
        event: bookingEvents.type,
        bookingId: bookingEvents.bookingId,
        actorId: bookingEvents.actorId,
        actorName: actorProfile.fullName,
        title: deliveryRequests.title,
      })
      .from(bookingEvents)
      .innerJoin(bookings, eq(bookings.id, bookingEvents.bookingId))
      .innerJoin(deliveryRequests, eq(deliveryRequests.id, bookings.requestId))
      .leftJoin(actorProfile, eq(actorProfile.userId, bookingEvents.actorId))
      .where(and(eq(party, userId), shown))
      .orderBy(desc(bookingEvents.createdAt), desc(bookingEvents.id))
      .limit(ACTIVITY_LIMIT)
      .then((rows) =>
        rows.map((r) => ({
          ...event('booking_event', { id: String(r.id), at: r.at }),
          event: r.event as BookingEventType,
          booking_id: r.bookingId,
          title: r.title,
          actor_name: r.actorName,
          mine: r.actorId === userId,
          my_role: side,
        })),
      );
  };

  /** My latest events of each kind, merged, newest first, at most ACTIVITY_LIMIT. */
  async function activity(userId: string): Promise<Activity[]> {
    const [posted, created, acceptedMine, made, asDriver, asRequester] = await Promise.all([
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
        .where(and(eq(bookings.requesterId, userId), ne(deliveryRequests.status, 'deleted')))
        .orderBy(desc(bookings.createdAt), desc(bookings.id))
        .limit(ACTIVITY_LIMIT),
      db
        .select({ id: bookings.id, at: bookings.createdAt, title: deliveryRequests.title, who: profiles.fullName })
        .from(bookings)
        .innerJoin(deliveryRequests, eq(deliveryRequests.id, bookings.requestId))
        .innerJoin(profiles, eq(profiles.userId, bookings.requesterId))
        .where(eq(bookings.driverId, userId))
        .orderBy(desc(bookings.createdAt), desc(bookings.id))
        .limit(ACTIVITY_LIMIT),
      lifecycleSide('driver', userId),
      lifecycleSide('requester', userId),
    ]);
    const events: (Activity & { time: number })[] = [
      ...posted.map((r) => ({ ...event('ride_posted', r), origin: r.origin, destination: r.destination })),
      ...created.map((r) => ({ ...event('request_created', r), title: r.title })),
      ...acceptedMine.map((r) => ({ ...event('request_accepted', r), title: r.title, driver_name: r.who })),
      ...made.map((r) => ({ ...event('booking_made', r), title: r.title, requester_name: r.who })),
      ...asDriver,
      ...asRequester,
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
