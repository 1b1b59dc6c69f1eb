import { NO_RIDES_MATCH } from '@shared/places';
import { SaveSearchButton } from '@/features/alerts';
import { BrowseList, useBrowseFilters } from '@/features/places';
import { useBrowseRides } from '../api/browse-rides';
import { BrowseRideCard } from './browse-ride-card';

/** Spec '/dashboard/browse-rides' ('Browse Available Rides'), with the place and date filters from the URL. */
export function BrowseRides() {
  const filters = useBrowseFilters();
  return (
    <BrowseList
      title="Browse Available Rides"
      idPrefix="rides"
      filterLabel="Filter rides"
      filters={filters}
      actions={<SaveSearchButton kind="rides" />}
      query={useBrowseRides(filters.api)}
      what="available rides"
      empty="No rides available at the moment. Check back later!"
      noMatch={NO_RIDES_MATCH}
      renderItem={(ride) => <BrowseRideCard ride={ride} />}
    />
  );
}
