import { MapPin } from 'lucide-react';
import type { Ride } from '@shared/marketplace';
import { distanceText } from '@shared/places';
import { PriorityBadge } from '@/components/priority-badge';
import { ProfileLink } from '@/components/profile-link';
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { AskToCarryButton } from '@/features/along-route';
import { RatingSummaryText } from '@/features/reviews';
import { RideDetails } from './ride-details';

/**
 * A ride in Browse: the route, how far it passes from the 'Near' place (when set), who posted it (linking to their
 * profile; 'Priority' after their name when they are a Plus or Community member, issue 38) with their rating, its
 * details, and 'Ask to carry something' unless it is my own ride.
 */
export function BrowseRideCard({ ride }: { ride: Ride }) {
  return (
    <Card>
      <CardHeader className="space-y-1">
        <CardTitle className="break-words">
          {ride.origin} → {ride.destination}
        </CardTitle>
        {ride.distance_miles !== undefined ? (
          <p className="flex items-center gap-1 text-sm font-medium">
            <MapPin aria-hidden className="size-4" />
            {distanceText(ride.distance_miles)}
          </p>
        ) : null}
        <p className="text-sm text-muted-foreground">
          Posted by{' '}
          <ProfileLink
            person={{
              id: ride.poster_id,
              full_name: ride.poster_name,
              verified: ride.poster_verified,
              ambassador: ride.poster_ambassador,
            }}
          />
          {ride.priority ? (
            <>
              {' '}
              <PriorityBadge />
            </>
          ) : null}
        </p>
        <p>
          <RatingSummaryText rating={ride.poster_rating} />
        </p>
      </CardHeader>
      <CardContent>
        <RideDetails ride={ride} />
      </CardContent>
      {ride.is_own ? null : (
        <CardFooter>
          <AskToCarryButton ride={ride} />
        </CardFooter>
      )}
    </Card>
  );
}
