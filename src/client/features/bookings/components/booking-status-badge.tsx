import { Badge, type BadgeProps } from '@/components/ui/badge';
import { capitalize } from '@/lib/format';

/** Spec section 4: pending yellow, confirmed blue, completed green, cancelled red, any other grey. */
const TONES: Record<string, NonNullable<BadgeProps['tone']>> = {
  pending: 'yellow',
  confirmed: 'blue',
  completed: 'green',
  cancelled: 'red',
};

export function bookingStatusTone(status: string): NonNullable<BadgeProps['tone']> {
  return Object.hasOwn(TONES, status) ? TONES[status]! : 'neutral';
}

export function BookingStatusBadge({ status }: { status: string }) {
  return <Badge tone={bookingStatusTone(status)}>{capitalize(status)}</Badge>;
}
