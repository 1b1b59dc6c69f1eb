import { MapPin } from 'lucide-react';
import { Link } from '@/lib/router';
import type { BookingRole } from '@shared/lifecycle';
import type { Booking } from '@shared/marketplace';
import { bookingDetailPath } from '@shared/routes';
import { BookingStatusBadge } from '@/components/booking-status-badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';

/** A booking on My Bookings: as its driver I see whom it is for (spec), as the requester who drives. */
export function BookingCard({ booking, role }: { booking: Booking; role: BookingRole }) {
  const { request } = booking;
  return (
    <Card>
      <CardHeader className="flex-row items-start justify-between gap-2 space-y-0">
        <div className="min-w-0 space-y-1">
          <CardTitle className="break-words">{request.title}</CardTitle>
          <p className="break-words text-sm text-muted-foreground">
            {role === 'driver' ? `For ${request.requester_name}` : `Driver: ${booking.driver_name}`}
          </p>
        </div>
        <BookingStatusBadge status={booking.status} />
      </CardHeader>
      <CardContent>
        <p className="flex items-center gap-2 break-words text-sm">
          <MapPin aria-hidden className="size-4 shrink-0 text-muted-foreground" />
          {request.pickup_location} → {request.delivery_location}
        </p>
      </CardContent>
      <CardFooter>
        <Button asChild variant="outline" size="sm">
          <Link to={bookingDetailPath(booking.id)} aria-label={`View booking for ${request.title}`}>
            View booking
          </Link>
        </Button>
      </CardFooter>
    </Card>
  );
}
