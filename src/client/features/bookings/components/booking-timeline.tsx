import type { BookingEvent } from '@shared/lifecycle';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { formatInstant } from '@/lib/format';
import { bookingEventText, reasonText } from './booking-event-text';

/** 'Timeline': every step of the booking, oldest first, with its time. */
export function BookingTimeline({ events }: { events: BookingEvent[] }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Timeline</CardTitle>
      </CardHeader>
      <CardContent>
        <ol className="space-y-4 border-l-2 border-muted pl-4">
          {events.map((event) => {
            const reason = reasonText(event.reason);
            return (
              <li key={event.id} className="relative">
                <span aria-hidden className="absolute -left-[1.4rem] top-1.5 size-3 rounded-full bg-primary" />
                <p className="font-medium">{bookingEventText(event)}</p>
                {reason ? <p className="text-sm">{reason}</p> : null}
                {event.details ? <p className="whitespace-pre-line break-words text-sm">{event.details}</p> : null}
                <time dateTime={event.at} className="text-sm text-muted-foreground">
                  {formatInstant(event.at)}
                </time>
              </li>
            );
          })}
        </ol>
      </CardContent>
    </Card>
  );
}
