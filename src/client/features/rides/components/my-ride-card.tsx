import type { Ride } from '@shared/marketplace';
import { OwnedItemCard } from '@/components/owned-item-card';
import { RideRouteActions } from '@/features/along-route';
import { useDeleteRide } from '../api/delete-ride';
import { RideDetails } from './ride-details';

export function MyRideCard({ ride }: { ride: Ride }) {
  const deleteRide = useDeleteRide();
  const route = `${ride.origin} → ${ride.destination}`;
  return (
    <OwnedItemCard
      title={route}
      status={ride.status}
      remove={{
        label: `Delete ride ${route}`,
        title: 'Delete this ride?',
        description: `Your ride ${route} will be removed. This cannot be undone.`,
        onConfirm: () => deleteRide.mutateAsync({ id: ride.id, label: `Delete ride ${route}` }),
      }}
    >
      <RideDetails ride={ride} />
      {/* Only a ride still to be driven has requests to pick up along the way. */}
      {ride.status === 'active' ? <RideRouteActions ride={ride} /> : null}
    </OwnedItemCard>
  );
}
