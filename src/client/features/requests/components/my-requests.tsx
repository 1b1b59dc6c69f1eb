import { ListPage } from '@/components/list-page';
import { useMyRequests } from '../api/my-requests';
import { MyRequestCard } from './my-request-card';
import { RequestForm } from './request-form';

/** Spec '/dashboard/requests' ('My Requests'). */
export function MyRequests() {
  return (
    <ListPage
      title="My Requests"
      create={{ toggleLabel: 'Create Request', formId: 'create-request-form', form: RequestForm }}
      query={useMyRequests()}
      what="your requests"
      empty='No requests yet. Click "Create Request" to get started!'
      renderItem={(request) => <MyRequestCard request={request} />}
    />
  );
}
