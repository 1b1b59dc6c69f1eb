import { CalendarDays, Package, StickyNote } from 'lucide-react';
import type { Ride } from '@shared/marketplace';
import { formatDateWithTime } from '@/lib/format';

/** The lines every ride card shows: when, the space offered, the notes. */
export function RideDetails({ ride }: { ride: Ride }) {
  return (
    <div className="space-y-2 text-sm">
      <p className="flex items-center gap-2">
        <CalendarDays aria-hidden className="size-4 shrink-0 text-muted-foreground" />
        {formatDateWithTime(ride.departure_date, ride.departure_time)}
      </p>
      {ride.available_space ? (
        <p className="flex items-center gap-2">
          <Package aria-hidden className="size-4 shrink-0 text-muted-foreground" />
          Available space: {ride.available_space}
        </p>
      ) : null}
      {ride.notes ? (
        <p className="flex items-start gap-2 whitespace-pre-line break-words">
          <StickyNote aria-hidden className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
          {ride.notes}
        </p>
      ) : null}
    </div>
  );
}
