import { useParams } from '@/lib/router';
import { BookingDetailPage } from '@/features/bookings/components/booking-detail-page';
import { MessagesSection } from '@/features/messages/components/messages-section';

export function Component() {
  const { id = '' } = useParams();
  // Keyed by id: another booking's page starts from its own state (dialogs closed, nothing pending).
  return (
    <BookingDetailPage
      key={id}
      id={id}
      messages={(booking) => (
        <MessagesSection
          bookingId={booking.id}
          myId={booking[booking.my_role].id}
          otherName={(booking.my_role === 'driver' ? booking.requester : booking.driver).full_name}
        />
      )}
    />
  );
}
