import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { bookingSchema } from '../../../../shared/marketplace';
import { cursorPaging, fetchPage } from '@/lib/pagination';
import { queryKeys } from '@/lib/query-keys';

/** GET /bookings/mine: bookings where the user is the driver, newest first. */
export function fetchMyBookings(cursor: string | null, signal?: AbortSignal) {
  return fetchPage('/bookings/mine', bookingSchema, cursor, signal);
}

export const myBookingsQueryOptions = infiniteQueryOptions({
  queryKey: queryKeys.myBookings,
  queryFn: ({ pageParam, signal }) => fetchMyBookings(pageParam, signal),
  ...cursorPaging,
});

export function useMyBookings() {
  return useInfiniteQuery(myBookingsQueryOptions);
}
