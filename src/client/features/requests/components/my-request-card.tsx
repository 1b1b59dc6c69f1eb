import { Link } from '@/lib/router';
import type { DeliveryRequest } from '@shared/marketplace';
import { requestDetailPath } from '@shared/routes';
import { OwnedItemCard } from '@/components/owned-item-card';
import { Button } from '@/components/ui/button';
import { useDeleteRequest } from '../api/delete-request';
import { RequestDetails } from './request-details';
import { RequestStatusBadge } from './request-status-badge';

/** '1 offer', '3 offers'; none yet reads as such. */
export function offerCountText(count: number): string {
  if (count === 0) return 'No offers yet';
  return count === 1 ? '1 offer' : `${count} offers`;
}

export function MyRequestCard({ request }: { request: DeliveryRequest }) {
  const deleteRequest = useDeleteRequest();
  // Offers are only pending while the request is open; once a driver is chosen the badge says so.
  const offers = request.status === 'open' && request.offer_count !== undefined ? request.offer_count : undefined;
  return (
    <OwnedItemCard
      title={request.title}
      status={request.status}
      badge={<RequestStatusBadge status={request.status} />}
      remove={{
        label: `Delete request ${request.title}`,
        title: 'Delete this request?',
        description: `"${request.title}" will be removed. Drivers who offered to carry it will see their offer declined. This cannot be undone.`,
        onConfirm: () => deleteRequest.mutateAsync({ id: request.id, label: `Delete request ${request.title}` }),
      }}
    >
      <RequestDetails request={request} />
      <div className="mt-4 flex flex-wrap items-center justify-between gap-2">
        {offers !== undefined ? <p className="text-sm font-medium">{offerCountText(offers)}</p> : <span />}
        <Button asChild variant="outline" size="sm">
          <Link to={requestDetailPath(request.id)} aria-label={`View request ${request.title}`}>
            View
          </Link>
        </Button>
      </div>
    </OwnedItemCard>
  );
}
