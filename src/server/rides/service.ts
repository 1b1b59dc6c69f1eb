import { and, asc, eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { earliestToday } from '../../shared/dates';
import type { Page, Ride } from '../../shared/marketplace';
import type { RideStatus } from '../../shared/statuses';
import type { Db } from '../db/client';
import { profiles, rideTimeKey, rides, users } from '../db/schema';
import { ratingFrom } from '../../shared/rating';
import { ratingOf } from '../reviews';
import { blockedWith } from '../moderation';
import { cursorDate, cursorTime, cursorUuid, keysetList, type PageRequest } from '../db/keyset';

interface RideFields {
  origin: string;
  destination: string;
  departure_date: string;
  departure_time: string | null;
  available_space: string | null;
  notes: string | null;
}

const rideCursor = z.tuple([cursorDate, cursorTime, cursorUuid]);

const columns = {
  id: rides.id,
  userId: rides.userId,
  origin: rides.origin,
  destination: rides.destination,
  departureDate: rides.departureDate,
  departureTime: rides.departureTime,
  availableSpace: rides.availableSpace,
  notes: rides.notes,
  status: rides.status,
  createdAt: rides.createdAt,
  posterName: profiles.fullName,
  ratingCount: profiles.ratingCount,
  ratingSum: profiles.ratingSum,
};
interface RideRow {
  id: string;
  userId: string;
  origin: string;
  destination: string;
  departureDate: string;
  departureTime: string | null;
  availableSpace: string | null;
  notes: string | null;
  status: string;
  createdAt: Date;
  posterName: string;
  ratingCount: number;
  ratingSum: number;
}

function toRide(row: RideRow, viewerId: string): Ride {
  return {
    id: row.id,
    origin: row.origin,
    destination: row.destination,
    departure_date: row.departureDate,
    // PostgreSQL answers 'HH:MM:SS'; the contract and the form use 'HH:MM'.
    departure_time: row.departureTime ? row.departureTime.slice(0, 5) : null,
    available_space: row.availableSpace,
    notes: row.notes,
    // The column's CHECK is built from the same list (src/shared/statuses.ts), so no other value can be stored.
    status: row.status as RideStatus,
    created_at: row.createdAt.toISOString(),
    poster_name: row.posterName,
    poster_id: row.userId,
    poster_rating: ratingFrom(row.ratingCount, row.ratingSum),
    is_own: row.userId === viewerId,
  };
}

const sortKey = (row: RideRow) => [row.departureDate, row.departureTime ?? '24:00:00', row.id] as const;

/** Rows after the cursor in (date, time-or-end-of-day, id) order: one row comparison the indexes can range-scan. */
const afterCursor = sql`(${rides.departureDate}, ${rideTimeKey(rides)}, ${rides.id}) > (${sql.placeholder('date')}::date, ${sql.placeholder('time')}::time, ${sql.placeholder('id')}::uuid)`;

/** Runs inside the transaction that creates a ride, with its id (app.ts: alerts for new rides). */
export type OnRideCreated = (tx: Db, rideId: string) => Promise<unknown>;

export function createRideService(db: Db, onCreated: OnRideCreated = async () => undefined) {
  const list = (name: string, filter: SQL, from = () => db.select(columns).from(rides).$dynamic()) =>
    keysetList({
      name,
      from: () => from().innerJoin(profiles, eq(profiles.userId, rides.userId)),
      filter,
      after: afterCursor,
      orderBy: [asc(rides.departureDate), asc(rideTimeKey(rides)), asc(rides.id)],
      cursor: rideCursor,
      bind: ([date, time, id]) => ({ date, time, id }),
      sortKey,
    });
  const mine = list('rides_mine', sql`${rides.userId} = ${sql.placeholder('userId')}`);
  // Browse leaves out a suspended driver's rides and anyone blocked either way with the viewer: one primary-key
  // probe of users and two of blocks per row read, on top of the same index range (bench/explain.ts).
  const active = list(
    'rides_browse',
    sql`${rides.status} = 'active' and ${rides.departureDate} >= ${sql.placeholder('today')}::date
      and ${users.suspendedAt} is null and not ${blockedWith(sql.placeholder('viewerId'), rides.userId)}`,
    () => db.select(columns).from(rides).innerJoin(users, eq(users.id, rides.userId)).$dynamic(),
  );

  async function listMine(userId: string, page: PageRequest): Promise<Page<Ride>> {
    return mine({ userId }, page, (r) => toRide(r, userId));
  }

  /** Active rides departing today (anywhere on Earth) or later, soonest first; not a suspended or blocked driver's. */
  async function browse(viewerId: string, page: PageRequest): Promise<Page<Ride>> {
    return active({ today: earliestToday(), viewerId }, page, (r) => toRide(r, viewerId));
  }

  async function create(user: { id: string; full_name: string }, input: RideFields): Promise<Ride> {
    const [row] = await db.transaction(async (tx) => {
      const inserted = await tx
        .insert(rides)
        .values({
          userId: user.id,
          origin: input.origin,
          destination: input.destination,
          departureDate: input.departure_date,
          departureTime: input.departure_time,
          availableSpace: input.available_space,
          notes: input.notes,
        })
        .returning({ ...getTableColumns(rides), ...ratingOf(rides.userId) });
      if (inserted[0]) await onCreated(tx, inserted[0].id);
      return inserted;
    });
    if (!row) throw new Error('insert returned no row');
    return toRide({ ...row, posterName: user.full_name }, user.id);
  }

  /** Deletes one of the user's own rides; false when there is none with that id (another user's included). */
  async function remove(userId: string, id: string): Promise<boolean> {
    const deleted = await db
      .delete(rides)
      .where(and(eq(rides.id, id), eq(rides.userId, userId)))
      .returning({ id: rides.id });
    return deleted.length > 0;
  }

  return { listMine, browse, create, remove };
}

export type RideService = ReturnType<typeof createRideService>;
