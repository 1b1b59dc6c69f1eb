import { Check, MapPin } from 'lucide-react';
import type * as React from 'react';
import { Link } from '@/lib/router';
import type { DeliveryRequest } from '@shared/marketplace';
import { distanceText } from '@shared/places';
import { PAGE_PATHS } from '@shared/routes';
import { PriorityBadge } from '@/components/priority-badge';
import { ProfileLink } from '@/components/profile-link';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { RatingSummaryText } from '@/features/reviews';
import { useAcceptRequest } from '../api/accept-request';
import { RequestDetails } from './request-details';

/**
 * A request in Browse: how far it is from the 'Near' place (when set), who asked (linking to their profile; 'Priority'
 * after their name when they are a Plus or Community member, issue 38) with their rating, its details and 'Accept'.
 * `notes` are lines under the title another list adds (along a route: 'Asked you', '+3 mi detour').
 */
export function BrowseRequestCard({ request, notes }: { request: DeliveryRequest; notes?: React.ReactNode }) {
  const accept = useAcceptRequest();
  const acceptLabel = accept.isPending ? 'Accepting...' : 'Accept';
  return (
    <Card>
      <CardHeader className="space-y-1">
        <CardTitle className="break-words">{request.title}</CardTitle>
        {request.distance_miles !== undefined ? (
          <p className="flex items-center gap-1 text-sm font-medium">
            <MapPin aria-hidden className="size-4" />
            {distanceText(request.distance_miles)}
          </p>
        ) : null}
        {notes}
        <p className="text-sm text-muted-foreground">
          Requested by{' '}
          <ProfileLink
            person={{
              id: request.requester_id,
              full_name: request.requester_name,
              verified: request.requester_verified,
              ambassador: request.requester_ambassador,
            }}
          />
          {request.priority ? (
            <>
              {' '}
              <PriorityBadge />
            </>
          ) : null}
        </p>
        <p>
          <RatingSummaryText rating={request.requester_rating} />
        </p>
      </CardHeader>
      <CardContent>
        <RequestDetails request={request} />
      </CardContent>
      <CardFooter>
        {request.is_own ? (
          // Users cannot accept their own request (the server refuses it too).
          <Badge tone="green">Your request</Badge>
        ) : request.accepted_by_me ? (
          // One offer per driver and request: the server refuses a second ('Already accepted').
          <div className="flex flex-wrap items-center gap-3">
            <Button disabled aria-label={`Offer sent for request ${request.title}`}>
              <Check aria-hidden />
              Offer sent
            </Button>
            <Link to={PAGE_PATHS.myBookings} className="text-sm font-medium text-primary underline underline-offset-4">
              See My Bookings
            </Link>
          </div>
        ) : (
          <Button
            disabled={accept.isPending}
            // The visible word first (label in name), then which request, since every card has an Accept.
            aria-label={`${acceptLabel} request ${request.title}`}
            onClick={() => accept.mutate({ requestId: request.id, label: `Accept request ${request.title}` })}
          >
            <Check aria-hidden />
            {acceptLabel}
          </Button>
        )}
      </CardFooter>
    </Card>
  );
}
