import type { Ride } from '@shared/marketplace';
import { isPaidPlan } from '@shared/plans';
import { OwnedItemCard } from '@/components/owned-item-card';
import { RideRouteActions } from '@/features/along-route';
import { useSession } from '@/features/auth';
import { useDeleteRide } from '../api/delete-ride';
import { EditRideStopsDialog, RemoveRideStopsButton } from './edit-ride-stops-dialog';
import { RideDetails } from './ride-details';

export function MyRideCard({ ride }: { ride: Ride }) {
  const deleteRide = useDeleteRide();
  // Stops are Plus and Community's (issue 38): a ride keeps its stops on Free, but only a paid plan edits them (Free
  // can take them off).
  const paid = isPaidPlan(useSession().data?.user?.plan);
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
      {ride.status === 'active' && (paid || ride.stops.length > 0) ? (
        <div className="mt-3">{paid ? <EditRideStopsDialog ride={ride} /> : <RemoveRideStopsButton ride={ride} />}</div>
      ) : null}
      {/* Only a ride still to be driven has requests to pick up along the way. */}
      {ride.status === 'active' ? <RideRouteActions ride={ride} /> : null}
    </OwnedItemCard>
  );
}
