import { count } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client';

/** A date far enough ahead that no test run ever sees it as past. */
export const FUTURE = '2099-06-15';

export const rideBody = (extra: Record<string, unknown> = {}) => ({
  origin: 'Millbrook Farm',
  destination: 'Harwood Market',
  departure_date: FUTURE,
  departure_time: '08:30',
  available_space: 'Back seat',
  notes: 'Leaving from the gate',
  ...extra,
});

export const requestBody = (extra: Record<string, unknown> = {}) => ({
  title: 'Feed from the co-op',
  description: 'Two bags of layer pellets',
  pickup_location: 'Harwood Co-op',
  delivery_location: 'Millbrook Farm',
  needed_by_date: FUTURE,
  compensation: '12.5',
  ...extra,
});

export async function countRows(db: Db, table: PgTable): Promise<number> {
  const [row] = await db.select({ n: count() }).from(table);
  return row?.n ?? 0;
}

export interface PageBody<T> {
  items: T[];
  next_cursor: string | null;
}

/** Follows next_cursor from the first page to the last and returns every item in order. */
export async function collectPages<T>(
  fetchPage: (cursor: string | null) => Promise<{ status: number; body: PageBody<T> }>,
  maxPages = 200,
): Promise<{ items: T[]; pages: number }> {
  const items: T[] = [];
  let cursor: string | null = null;
  for (let pages = 1; pages <= maxPages; pages++) {
    const res = await fetchPage(cursor);
    if (res.status !== 200) throw new Error(`page ${pages} answered ${res.status}: ${JSON.stringify(res.body)}`);
    items.push(...res.body.items);
    cursor = res.body.next_cursor;
    if (!cursor) return { items, pages };
  }
  throw new Error('pagination did not end');
}

/** Timestamps keep milliseconds: waiting a few between writes makes "newest first" assertions deterministic. */
export const tick = () => new Promise((resolve) => setTimeout(resolve, 3));
