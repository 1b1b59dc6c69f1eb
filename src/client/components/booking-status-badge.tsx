import { bookingStatusSchema, type BookingStatus } from '@shared/statuses';
import { StatusBadge, type BadgeTone } from '@/components/status-badge';

/**
 * Spec section 4: pending yellow, confirmed blue, completed green, cancelled red; declined and any other grey.
 * Shared: My Bookings, the booking page and the request page show it.
 */
const TONES: Record<BookingStatus, BadgeTone> = {
  pending: 'yellow',
  confirmed: 'blue',
  completed: 'green',
  cancelled: 'red',
  declined: 'neutral',
};

export function BookingStatusBadge({ status }: { status: string }) {
  const known = bookingStatusSchema.safeParse(status);
  return <StatusBadge status={status} tone={known.success ? TONES[known.data] : 'neutral'} />;
}
