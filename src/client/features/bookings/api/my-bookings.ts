import { bookingSchema } from '@shared/marketplace';
import { listQuery } from '@/lib/pagination';
import { queryKeys } from '@/lib/query-keys';

/** GET /bookings/mine?role=driver: the bookings where I am the driver, newest first ('As driver'). */
export const useMyDriverBookings = listQuery({
  path: '/bookings/mine',
  item: bookingSchema,
  queryKey: queryKeys.myBookingsAs('driver'),
  filters: { role: 'driver' },
});

/** GET /bookings/mine?role=requester: the offers and bookings on my requests, newest first ('As requester'). */
export const useMyRequesterBookings = listQuery({
  path: '/bookings/mine',
  item: bookingSchema,
  queryKey: queryKeys.myBookingsAs('requester'),
  filters: { role: 'requester' },
});
