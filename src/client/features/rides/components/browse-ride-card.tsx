import type { Ride } from '../../../../shared/marketplace';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { RideDetails } from './ride-details';

export function BrowseRideCard({ ride }: { ride: Ride }) {
  return (
    <Card>
      <CardHeader className="space-y-1">
        <CardTitle className="break-words">
          {ride.origin} → {ride.destination}
        </CardTitle>
        <p className="text-sm text-muted-foreground">Posted by {ride.poster_name}</p>
      </CardHeader>
      <CardContent>
        <RideDetails ride={ride} />
      </CardContent>
    </Card>
  );
}
