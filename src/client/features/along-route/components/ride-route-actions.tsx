import { Route } from 'lucide-react';
import { Link } from '@/lib/router';
import type { Ride } from '@shared/marketplace';
import { alongRouteLabel, ROUTE_NEEDS_PLACES } from '@shared/places';
import { alongRoutePath } from '@shared/routes';
import { Button } from '@/components/ui/button';
import { RouteAlertToggle } from '@/features/alerts';
import { ApiError } from '@/lib/api-client';
import { useAlongRouteCount } from '../api/along-route';

/**
 * The foot of an active ride's card on My Rides: 'Requests along this route (N)' and the route alert toggle; a ride
 * typed without suggested places says what to do instead (the server answers route_needs_places for it).
 */
export function RideRouteActions({ ride }: { ride: Ride }) {
  const count = useAlongRouteCount(ride.id);
  if (count.error instanceof ApiError && count.error.code === 'route_needs_places') {
    return <p className="mt-4 border-t pt-4 text-sm text-muted-foreground">{ROUTE_NEEDS_PLACES}</p>;
  }
  return (
    <div className="mt-4 flex flex-wrap items-center gap-3 border-t pt-4">
      <Button asChild variant="outline">
        <Link to={alongRoutePath(ride.id)}>
          <Route aria-hidden />
          {/* Until the count arrives (or if it failed), the link works without its number. */}
          {count.data === undefined ? 'Requests along this route' : alongRouteLabel(count.data)}
        </Link>
      </Button>
      <RouteAlertToggle rideId={ride.id} route={`${ride.origin} → ${ride.destination}`} />
    </div>
  );
}
