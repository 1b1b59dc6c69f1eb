import { PageHeader } from '@/components/page-header';
import { PaginatedList } from '@/components/paginated-list';
import { useMyBookings } from '../api/my-bookings';
import { BookingCard } from './booking-card';

/** Spec '/dashboard/bookings' ('My Bookings'). */
export function MyBookings() {
  const bookings = useMyBookings();
  return (
    <div>
      <PageHeader title="My Bookings" />
      <PaginatedList
        query={bookings}
        what="your bookings"
        empty="No bookings yet. Browse requests to accept deliveries!"
        renderItem={(booking) => <BookingCard booking={booking} />}
      />
    </div>
  );
}
