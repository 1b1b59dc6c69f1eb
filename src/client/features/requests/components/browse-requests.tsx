import { NO_REQUESTS_MATCH } from '@shared/places';
import { SaveSearchButton } from '@/features/alerts';
import { BrowseList, useBrowseFilters } from '@/features/places';
import { useBrowseRequests } from '../api/browse-requests';
import { BrowseRequestCard } from './browse-request-card';

/** Spec '/dashboard/browse-requests' ('Browse Delivery Requests'), with the place and date filters from the URL. */
export function BrowseRequests() {
  const filters = useBrowseFilters();
  return (
    <BrowseList
      title="Browse Delivery Requests"
      idPrefix="requests"
      filterLabel="Filter requests"
      filters={filters}
      actions={<SaveSearchButton kind="requests" />}
      query={useBrowseRequests(filters.api)}
      what="delivery requests"
      empty="No requests available at the moment. Check back later!"
      noMatch={NO_REQUESTS_MATCH}
      renderItem={(request) => <BrowseRequestCard request={request} />}
    />
  );
}
