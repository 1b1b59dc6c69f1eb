import { PageWithForm } from '@/components/page-with-form';
import { PaginatedList } from '@/components/paginated-list';
import { useMyRides } from '../api/my-rides';
import { MyRideCard } from './my-ride-card';
import { RideForm } from './ride-form';

/** Spec '/dashboard/rides' ('My Rides'). */
export function MyRides() {
  const rides = useMyRides();
  return (
    <PageWithForm title="My Rides" toggleLabel="Post New Ride" formId="post-ride-form" form={RideForm}>
      <PaginatedList
        query={rides}
        what="your rides"
        empty='No rides posted yet. Click "Post New Ride" to get started!'
        renderItem={(ride) => <MyRideCard ride={ride} />}
      />
    </PageWithForm>
  );
}
