import type { DeliveryRequest } from '../../../../shared/marketplace';
import { ConfirmDeleteButton } from '@/components/confirm-delete-button';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { capitalize } from '@/lib/format';
import { useDeleteRequest } from '../api/delete-request';
import { RequestDetails } from './request-details';

export function MyRequestCard({ request }: { request: DeliveryRequest }) {
  const deleteRequest = useDeleteRequest();
  return (
    <Card>
      <CardHeader className="flex-row items-start justify-between gap-2 space-y-0">
        <div className="min-w-0 space-y-2">
          <CardTitle className="break-words">{request.title}</CardTitle>
          <Badge>{capitalize(request.status)}</Badge>
        </div>
        <ConfirmDeleteButton
          label={`Delete request ${request.title}`}
          title="Delete this request?"
          description={`"${request.title}" will be removed. A driver who already accepted it will see the booking as cancelled. This cannot be undone.`}
          onConfirm={() => deleteRequest.mutateAsync(request.id)}
        />
      </CardHeader>
      <CardContent>
        <RequestDetails request={request} />
      </CardContent>
    </Card>
  );
}
