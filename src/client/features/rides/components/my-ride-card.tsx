import type { Ride } from '../../../../shared/marketplace';
import { ConfirmDeleteButton } from '@/components/confirm-delete-button';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { capitalize } from '@/lib/format';
import { useDeleteRide } from '../api/delete-ride';
import { RideDetails } from './ride-details';

export function MyRideCard({ ride }: { ride: Ride }) {
  const deleteRide = useDeleteRide();
  const route = `${ride.origin} → ${ride.destination}`;
  return (
    <Card>
      <CardHeader className="flex-row items-start justify-between gap-2 space-y-0">
        <div className="min-w-0 space-y-2">
          <CardTitle className="break-words">{route}</CardTitle>
          <Badge>{capitalize(ride.status)}</Badge>
        </div>
        <ConfirmDeleteButton
          label={`Delete ride ${route}`}
          title="Delete this ride?"
          description={`Your ride ${route} will be removed. This cannot be undone.`}
          onConfirm={() => deleteRide.mutateAsync(ride.id)}
        />
      </CardHeader>
      <CardContent>
        <RideDetails ride={ride} />
      </CardContent>
    </Card>
  );
}
