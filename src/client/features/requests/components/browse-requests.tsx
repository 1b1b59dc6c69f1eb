import { ListPage } from '@/components/list-page';
import { SaveSearchButton } from '@/features/alerts';
import { useBrowseRequests } from '../api/browse-requests';
import { BrowseRequestCard } from './browse-request-card';

/** Spec '/dashboard/browse-requests' ('Browse Delivery Requests'). */
export function BrowseRequests() {
  return (
    <ListPage
      title="Browse Delivery Requests"
      actions={<SaveSearchButton kind="requests" />}
      query={useBrowseRequests()}
      what="delivery requests"
      empty="No requests available at the moment. Check back later!"
      renderItem={(request) => <BrowseRequestCard request={request} />}
    />
  );
}
