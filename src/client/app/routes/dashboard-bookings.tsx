import { MyBookings } from '@/features/bookings/components/my-bookings';

export function Component() {
  return <MyBookings />;
}
