import { Bell, BellRing } from 'lucide-react';
import { ROUTE_ALERT_LABEL } from '@shared/places';
import { Button } from '@/components/ui/button';
import { useSavedSearches, useSetRouteAlert } from '../api/saved-searches';

/**
 * My Rides: 'Tell me about new requests along this route', a toggle button (aria-pressed) for the ride's route
 * alert. Whether it is on comes from my saved-search list (read once for every card); while a change is on its way
 * the button already shows it, and further presses wait (not disabled: that would drop the keyboard focus).
 */
export function RouteAlertToggle({ rideId, route }: { rideId: string; route: string }) {
  const searches = useSavedSearches();
  const setAlert = useSetRouteAlert(rideId);
  const saved = searches.data?.items.some((s) => s.ride_id === rideId) ?? false;
  const on = setAlert.isPending ? setAlert.variables : saved;
  const Icon = on ? BellRing : Bell;
  return (
    <Button
      variant={on ? 'default' : 'outline'}
      aria-pressed={on}
      // The visible words first (label in name), then which ride, since every card has one.
      aria-label={`${ROUTE_ALERT_LABEL}: ${route}`}
      onClick={() => {
        if (searches.data && !setAlert.isPending) setAlert.mutate(!on);
      }}
    >
      <Icon aria-hidden />
      {ROUTE_ALERT_LABEL}
    </Button>
  );
}
