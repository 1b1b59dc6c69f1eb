import { PageHeader } from '@/components/page-header';
import { PaginatedList } from '@/components/paginated-list';
import { useBrowseRides } from '../api/browse-rides';
import { BrowseRideCard } from './browse-ride-card';

/** Spec '/dashboard/browse-rides' ('Browse Available Rides'). */
export function BrowseRides() {
  const rides = useBrowseRides();
  return (
    <div>
      <PageHeader title="Browse Available Rides" />
      <PaginatedList
        query={rides}
        what="available rides"
        empty="No rides available at the moment. Check back later!"
        renderItem={(ride) => <BrowseRideCard ride={ride} />}
      />
    </div>
  );
}
