import { bookingSchema } from '../../../../shared/marketplace';
import { listQuery } from '@/lib/pagination';
import { queryKeys } from '@/lib/query-keys';

/** GET /bookings/mine: bookings where the user is the driver, newest first. */
export const useMyBookings = listQuery({ path: '/bookings/mine', item: bookingSchema, queryKey: queryKeys.myBookings });
