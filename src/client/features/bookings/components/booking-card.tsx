import { MapPin } from 'lucide-react';
import type { Booking } from '../../../../shared/marketplace';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { BookingStatusBadge } from './booking-status-badge';

export function BookingCard({ booking }: { booking: Booking }) {
  const { request } = booking;
  return (
    <Card>
      <CardHeader className="flex-row items-start justify-between gap-2 space-y-0">
        <div className="min-w-0 space-y-1">
          <CardTitle className="break-words">{request.title}</CardTitle>
          <p className="text-sm text-muted-foreground">For {request.requester_name}</p>
        </div>
        <BookingStatusBadge status={booking.status} />
      </CardHeader>
      <CardContent>
        <p className="flex items-center gap-2 break-words text-sm">
          <MapPin aria-hidden className="size-4 shrink-0 text-muted-foreground" />
          {request.pickup_location} → {request.delivery_location}
        </p>
      </CardContent>
    </Card>
  );
}
