import { ListPage } from '@/components/list-page';
import { SaveSearchButton } from '@/features/alerts';
import { useBrowseRides } from '../api/browse-rides';
import { BrowseRideCard } from './browse-ride-card';

/** Spec '/dashboard/browse-rides' ('Browse Available Rides'). */
export function BrowseRides() {
  return (
    <ListPage
      title="Browse Available Rides"
      actions={<SaveSearchButton kind="rides" />}
      query={useBrowseRides()}
      what="available rides"
      empty="No rides available at the moment. Check back later!"
      renderItem={(ride) => <BrowseRideCard ride={ride} />}
    />
  );
}
