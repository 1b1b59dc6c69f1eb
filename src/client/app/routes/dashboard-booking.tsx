import { useParams } from 'react-router';
import { BookingDetailPage } from '@/features/bookings/components/booking-detail-page';

export function Component() {
  const { id = '' } = useParams();
  // Keyed by id: another booking's page starts from its own state (dialogs closed, nothing pending).
  return <BookingDetailPage key={id} id={id} />;
}
