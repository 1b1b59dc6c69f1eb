import { ListPage } from '@/components/list-page';
import { useMyBookings } from '../api/my-bookings';
import { BookingCard } from './booking-card';

/** Spec '/dashboard/bookings' ('My Bookings'). */
export function MyBookings() {
  return (
    <ListPage
      title="My Bookings"
      query={useMyBookings()}
      what="your bookings"
      empty="No bookings yet. Browse requests to accept deliveries!"
      renderItem={(booking) => <BookingCard booking={booking} />}
    />
  );
}
