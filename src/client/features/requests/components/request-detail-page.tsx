import { useRef } from 'react';
import { Link } from '@/lib/router';
import type { RequestDetail } from '@shared/lifecycle';
import { idParamSchema } from '@shared/marketplace';
import { bookingDetailPath, PAGE_PATHS } from '@shared/routes';
import { BackLink } from '@/components/back-link';
import { BookingStatusBadge } from '@/components/booking-status-badge';
import { DetailNotFound, DetailQuery } from '@/components/detail-query';
import { PageHeader } from '@/components/page-header';
import { ProfileLink } from '@/components/profile-link';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { useFocusOnChange } from '@/hooks/use-focus-on-change';
import { useRequestDetail } from '../api/request-detail';
import { OfferList } from './offer-list';
import { RequestDetails } from './request-details';
import { RequestStatusBadge } from './request-status-badge';

const NOT_FOUND = {
  title: 'Request not found',
  text: 'This request does not exist, was deleted, or is not one of yours.',
  back: { to: PAGE_PATHS.myRequests, label: 'Back to My Requests' },
};

export const NO_OFFERS_TEXT = 'No offers yet. Drivers who accept your request will appear here.';

function Offers({ request, onDone }: { request: RequestDetail; onDone: () => void }) {
  let body;
  if (request.offers.length > 0)
    body = <OfferList offers={request.offers} title={request.title} quote={request.payment_quote} onDone={onDone} />;
  else
    body = (
      <Card className="p-6 text-center text-muted-foreground">
        <p>{request.status === 'open' ? NO_OFFERS_TEXT : 'No pending offers.'}</p>
      </Card>
    );
  return (
    <section aria-labelledby="offers-heading" className="space-y-3">
      <h2 id="offers-heading" className="text-xl font-semibold">
        Offers
      </h2>
      {body}
    </section>
  );
}

function ChosenBooking({ booking }: { booking: NonNullable<RequestDetail['booking']> }) {
  return (
    <section aria-labelledby="booking-heading" className="space-y-3">
      <h2 id="booking-heading" className="text-xl font-semibold">
        Booking
      </h2>
      <Card className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between">
        <div className="min-w-0 space-y-1">
          <p className="break-words">
            Driver: <ProfileLink person={booking.driver} />
          </p>
          <BookingStatusBadge status={booking.status} />
        </div>
        <Button asChild variant="outline">
          <Link to={bookingDetailPath(booking.id)}>View booking</Link>
        </Button>
      </Card>
    </section>
  );
}

function RequestDetailView({ request }: { request: RequestDetail }) {
  // After choosing or declining, the offer's buttons are gone: focus goes to the status, which says what changed.
  const statusRef = useRef<HTMLParagraphElement>(null);
  // Choosing a driver may remove the offer, dialog and all, before the dialog hands focus back.
  useFocusOnChange(statusRef, request.status);
  return (
    <div className="space-y-6">
      <div>
        <BackLink to={PAGE_PATHS.myRequests}>My Requests</BackLink>
        <PageHeader title={request.title} />
        <Card>
          <CardContent className="space-y-4 pt-6">
            <p ref={statusRef} tabIndex={-1} className="flex items-center gap-2 rounded-sm text-sm focus:outline-none">
              Status: <RequestStatusBadge status={request.status} />
            </p>
            <RequestDetails request={request} />
          </CardContent>
        </Card>
      </div>
      {request.booking ? <ChosenBooking booking={request.booking} /> : null}
      <Offers request={request} onDone={() => statusRef.current?.focus()} />
    </div>
  );
}

function LoadedRequestDetail({ id }: { id: string }) {
  return (
    <DetailQuery query={useRequestDetail(id)} what="this request" notFound={NOT_FOUND}>
      {(request) => <RequestDetailView request={request} />}
    </DetailQuery>
  );
}

/** '/dashboard/requests/:id': my request, its status, the pending offers to choose from, the chosen booking. */
export function RequestDetailPage({ id }: { id: string }) {
  if (!idParamSchema.safeParse({ id }).success) return <DetailNotFound {...NOT_FOUND} />;
  return <LoadedRequestDetail id={id} />;
}
