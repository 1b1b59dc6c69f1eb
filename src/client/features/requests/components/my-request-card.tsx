import type { DeliveryRequest } from '../../../../shared/marketplace';
import { OwnedItemCard } from '@/components/owned-item-card';
import { useDeleteRequest } from '../api/delete-request';
import { RequestDetails } from './request-details';

export function MyRequestCard({ request }: { request: DeliveryRequest }) {
  const deleteRequest = useDeleteRequest();
  return (
    <OwnedItemCard
      title={request.title}
      status={request.status}
      remove={{
        label: `Delete request ${request.title}`,
        title: 'Delete this request?',
        description: `"${request.title}" will be removed. A driver who already accepted it will see the booking as cancelled. This cannot be undone.`,
        onConfirm: () => deleteRequest.mutateAsync(request.id),
      }}
    >
      <RequestDetails request={request} />
    </OwnedItemCard>
  );
}
