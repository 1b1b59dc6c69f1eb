import { ListPage } from '@/components/list-page';
import { useMyRides } from '../api/my-rides';
import { MyRideCard } from './my-ride-card';
import { RideForm } from './ride-form';

/** Spec '/dashboard/rides' ('My Rides'). */
export function MyRides() {
  return (
    <ListPage
      title="My Rides"
      create={{ toggleLabel: 'Post New Ride', formId: 'post-ride-form', form: RideForm }}
      query={useMyRides()}
      what="your rides"
      empty='No rides posted yet. Click "Post New Ride" to get started!'
      renderItem={(ride) => <MyRideCard ride={ride} />}
    />
  );
}
