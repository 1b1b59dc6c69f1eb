import { useInfiniteQuery } from '@tanstack/react-query';
import { bookingSchema } from '../../../../shared/marketplace';
import { listQueryOptions } from '@/lib/pagination';
import { queryKeys } from '@/lib/query-keys';

/** GET /bookings/mine: bookings where the user is the driver, newest first. */
const myBookingsQueryOptions = listQueryOptions({
  path: '/bookings/mine',
  item: bookingSchema,
  queryKey: queryKeys.myBookings,
});

export function useMyBookings() {
  return useInfiniteQuery(myBookingsQueryOptions);
}
