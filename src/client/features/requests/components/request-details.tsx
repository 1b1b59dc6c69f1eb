import { CalendarDays, DollarSign, MapPin } from 'lucide-react';
import { formatLongDate } from '@shared/dates';
import type { DeliveryRequest } from '@shared/marketplace';
import { formatMoney } from '@shared/money';

type Details = Pick<
  DeliveryRequest,
  'description' | 'pickup_location' | 'delivery_location' | 'needed_by_date' | 'compensation'
>;

/** What every request card (and the request page) shows below its title: description, route, needed-by, pay. */
export function RequestDetails({ request }: { request: Details }) {
  return (
    <div className="space-y-2 text-sm">
      <p className="whitespace-pre-line break-words">{request.description}</p>
      <p className="flex items-center gap-2 break-words">
        <MapPin aria-hidden className="size-4 shrink-0 text-muted-foreground" />
        {request.pickup_location} → {request.delivery_location}
      </p>
      {request.needed_by_date ? (
        <p className="flex items-center gap-2">
          <CalendarDays aria-hidden className="size-4 shrink-0 text-muted-foreground" />
          Needed by: {formatLongDate(request.needed_by_date)}
        </p>
      ) : null}
      {request.compensation !== null ? (
        <p className="flex items-center gap-2 font-medium">
          <DollarSign aria-hidden className="size-4 shrink-0 text-muted-foreground" />
          Compensation: {formatMoney(request.compensation)}
        </p>
      ) : null}
    </div>
  );
}
