import { PageHeader } from '@/components/page-header';
import { PaginatedList } from '@/components/paginated-list';
import { useBrowseRequests } from '../api/browse-requests';
import { BrowseRequestCard } from './browse-request-card';

/** Spec '/dashboard/browse-requests' ('Browse Delivery Requests'). */
export function BrowseRequests() {
  const requests = useBrowseRequests();
  return (
    <div>
      <PageHeader title="Browse Delivery Requests" />
      <PaginatedList
        query={requests}
        what="delivery requests"
        empty="No requests available at the moment. Check back later!"
        renderItem={(request) => <BrowseRequestCard request={request} />}
      />
    </div>
  );
}
