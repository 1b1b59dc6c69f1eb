import { CalendarDays, MapPinned, Package, StickyNote } from 'lucide-react';
import type { Ride } from '@shared/marketplace';
import { STOPS_TEXT } from '@shared/plans';
import { formatDateWithTime } from '@/lib/format';

/** A ride's stops in order, as one line of the card: 'Stops: Springfield, IL → Miller farm' (a list to a reader). */
export function RideStops({ ride }: { ride: Pick<Ride, 'stops'> }) {
  if (!ride.stops.length) return null;
  return (
    <div className="flex items-start gap-2">
      <MapPinned aria-hidden className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
      <div className="min-w-0 break-words">
        <span aria-hidden>{STOPS_TEXT.heading}: </span>
        <ol className="inline" aria-label={STOPS_TEXT.heading}>
          {ride.stops.map((stop, i) => (
            <li key={i} className="inline">
              {i > 0 ? <span aria-hidden> → </span> : null}
              {stop.label}
            </li>
          ))}
        </ol>
      </div>
    </div>
  );
}

/** The lines every ride card shows: its stops, when, the space offered, the notes. */
export function RideDetails({ ride }: { ride: Ride }) {
  return (
    <div className="space-y-2 text-sm">
      <RideStops ride={ride} />
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
