import { PageWithForm } from '@/components/page-with-form';
import { PaginatedList } from '@/components/paginated-list';
import { useMyRequests } from '../api/my-requests';
import { MyRequestCard } from './my-request-card';
import { RequestForm } from './request-form';

/** Spec '/dashboard/requests' ('My Requests'). */
export function MyRequests() {
  const requests = useMyRequests();
  return (
    <PageWithForm title="My Requests" toggleLabel="Create Request" formId="create-request-form" form={RequestForm}>
      <PaginatedList
        query={requests}
        what="your requests"
        empty='No requests yet. Click "Create Request" to get started!'
        renderItem={(request) => <MyRequestCard request={request} />}
      />
    </PageWithForm>
  );
}
