import { useRef } from 'react';
import type * as React from 'react';
import { formatLongDate } from '@shared/dates';
import { ALL_CANCEL_REASONS, type BookingDetail, type BookingRole } from '@shared/lifecycle';
import { idParamSchema } from '@shared/marketplace';
import { formatCents, formatMoney } from '@shared/money';
import { PAYMENT_ON_HOLD_LABEL } from '@shared/disputes';
import { paymentStateLabel, TEST_MODE_NOTICE } from '@shared/payments';
import { MY_BOOKINGS_AS_REQUESTER_PATH, PAGE_PATHS } from '@shared/routes';
import { BackLink } from '@/components/back-link';
import { BookingStatusBadge } from '@/components/booking-status-badge';
import { DetailNotFound, DetailQuery } from '@/components/detail-query';
import { PageHeader } from '@/components/page-header';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { useFocusOnChange } from '@/hooks/use-focus-on-change';
import { formatInstant } from '@/lib/format';
import { DisputeSection, ReportProblemButton } from '@/features/disputes';
import { PersonMenu } from '@/features/moderation';
import { BookingReviewsSection } from '@/features/reviews';
import { useBookingDetail } from '../api/booking-detail';
import { BookingActions } from './booking-actions';
import { BookingTimeline } from './booking-timeline';

const ROLE_LABEL: Record<BookingRole, string> = { driver: 'Driver', requester: 'Requester' };

const NOT_FOUND = {
  title: 'Booking not found',
  text: 'This booking does not exist, or you are not its driver or requester.',
  back: { to: PAGE_PATHS.myBookings, label: 'Back to My Bookings' },
};

function Item({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-sm text-muted-foreground">{term}</dt>
      <dd className="break-words font-medium">{children}</dd>
    </div>
  );
}

function Summary({ booking }: { booking: BookingDetail }) {
  const { request } = booking;
  const me = (role: BookingRole) => (booking.my_role === role ? ' (you)' : '');
  return (
    <Card>
      <CardContent className="space-y-4 pt-6">
        <dl className="grid gap-4 sm:grid-cols-2">
          <Item term="Pickup">{request.pickup_location}</Item>
          <Item term="Delivery">{request.delivery_location}</Item>
          <Item term="Needed by">
            {request.needed_by_date ? formatLongDate(request.needed_by_date) : 'No date set'}
          </Item>
          <Item term="Compensation">{request.compensation !== null ? formatMoney(request.compensation) : 'None'}</Item>
          <Item term={ROLE_LABEL.driver}>
            <PersonMenu person={booking.driver} bookingId={booking.id} />
            {me('driver')}
          </Item>
          <Item term={ROLE_LABEL.requester}>
            <PersonMenu person={booking.requester} bookingId={booking.id} />
            {me('requester')}
          </Item>
        </dl>
        <p className="whitespace-pre-line break-words text-sm">{request.description}</p>
      </CardContent>
    </Card>
  );
}

/** The requester's code for the handoff; the server sends it to nobody else, and only while confirmed. */
function DeliveryCode({ code }: { code: string }) {
  return (
    <Card className="border-primary/40">
      <CardHeader>
        <CardTitle>Delivery code</CardTitle>
      </CardHeader>
      <CardContent className="space-y-2">
        <p className="font-mono text-4xl font-bold tracking-[0.3em]" data-testid="delivery-code">
          {code}
        </p>
        <p className="text-sm text-muted-foreground">
          Give this code to the driver when they hand the item over. Do not share it before.
        </p>
      </CardContent>
    </Card>
  );
}

function Cancellation({ booking }: { booking: BookingDetail }) {
  const c = booking.cancellation;
  if (!c) return null;
  const who = !c.by
    ? 'RuralRoute'
    : c.by.id === booking[booking.my_role].id
      ? 'you'
      : `${c.by.full_name} (${ROLE_LABEL[c.by.role]})`;
  return (
    <Card className="border-destructive/40">
      <CardHeader>
        <CardTitle>Cancelled</CardTitle>
      </CardHeader>
      <CardContent className="space-y-1">
        <p>Cancelled by {who}.</p>
        <p>Reason: {ALL_CANCEL_REASONS[c.reason]}</p>
        {c.details ? <p className="whitespace-pre-line break-words">Details: {c.details}</p> : null}
      </CardContent>
    </Card>
  );
}

/** Why a card dispute holds the money (instead of a reported problem's wording). */
export const CHARGEBACK_HOLD_TEXT =
  "The requester's bank is reviewing a card dispute of this payment: nothing is released or refunded until it closes.";

/**
 * The booking's payment for both people: what the driver receives and where the money is (docs/payments.md). Held
 * money a reported problem holds reads 'On hold' (the dispute section says why); a card dispute the bank opened
 * reads 'Chargeback · On hold' and says the bank is reviewing it.
 */
function Payment({ booking }: { booking: BookingDetail }) {
  const p = booking.payment;
  if (!p) return null;
  const when = p.settled_at ?? p.held_at;
  const label = paymentStateLabel(p.state, formatCents(p.refunded_cents), p.chargeback);
  // A card dispute's hold reads 'Chargeback · On hold'; a reported problem's, 'On hold'.
  const state = !p.on_hold ? label : p.chargeback ? `${label} · ${PAYMENT_ON_HOLD_LABEL}` : PAYMENT_ON_HOLD_LABEL;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Payment</CardTitle>
      </CardHeader>
      <CardContent className="space-y-1">
        <p>
          {booking.driver.full_name} receives {formatCents(p.compensation_cents)}
        </p>
        {p.total_cents !== null ? (
          <p>
            You paid {formatCents(p.total_cents)}
            {p.fee_cents ? ` (service fee ${formatCents(p.fee_cents)})` : ''}
            {p.card_last4 ? ` with the card ending in ${p.card_last4}` : ''}.
          </p>
        ) : null}
        {p.credit_cents ? <p>RuralRoute credit paid {formatCents(p.credit_cents)} of it.</p> : null}
        <p>
          {state}: <time dateTime={when}>{formatInstant(when)}</time>
        </p>
        {p.on_hold && p.chargeback ? (
          <p className="text-sm text-muted-foreground">{CHARGEBACK_HOLD_TEXT}</p>
        ) : p.on_hold ? (
          <p className="text-sm text-muted-foreground">Held by RuralRoute until a moderator decides.</p>
        ) : p.state === 'held' ? (
          <p className="text-sm text-muted-foreground">Held by RuralRoute until the delivery is complete.</p>
        ) : null}
        {p.test_mode ? <p className="text-sm text-muted-foreground">{TEST_MODE_NOTICE}</p> : null}
      </CardContent>
    </Card>
  );
}

/** What the route puts on the page from other features (the conversation), given the loaded booking. */
type Slot = (booking: BookingDetail) => React.ReactNode;

function BookingDetailView({ booking, messages }: { booking: BookingDetail; messages?: Slot }) {
  // After an action the button pressed may be gone: focus goes to the status, which says what changed.
  const statusRef = useRef<HTMLParagraphElement>(null);
  // When my action ends the last one (a withdrawn offer), its section goes with the dialog: the status takes focus.
  useFocusOnChange(statusRef, booking.status);
  // After a report or a response is sent, its button is gone: focus goes to 'Problem reported'.
  const disputeRef = useRef<HTMLHeadingElement>(null);
  const { request } = booking;
  const back = booking.my_role === 'driver' ? PAGE_PATHS.myBookings : MY_BOOKINGS_AS_REQUESTER_PATH;
  return (
    <div className="space-y-6">
      <div>
        <BackLink to={back}>My Bookings</BackLink>
        <PageHeader
          title={request.title}
          description={booking.my_role === 'driver' ? 'You are the driver.' : 'You are the requester.'}
        />
        <p ref={statusRef} tabIndex={-1} className="flex items-center gap-2 rounded-sm text-sm focus:outline-none">
          Status: <BookingStatusBadge status={booking.status} />
        </p>
      </div>
      {booking.actions.length > 0 || booking.can_report_problem ? (
        <section aria-labelledby="actions-heading" className="space-y-3">
          <h2 id="actions-heading" className="sr-only">
            Actions
          </h2>
          {booking.actions.length > 0 ? (
            <BookingActions booking={booking} onDone={() => statusRef.current?.focus()} />
          ) : null}
          {booking.can_report_problem ? (
            <ReportProblemButton booking={booking} onDone={() => (disputeRef.current ?? statusRef.current)?.focus()} />
          ) : null}
        </section>
      ) : null}
      {booking.my_role === 'requester' && booking.delivery_code ? <DeliveryCode code={booking.delivery_code} /> : null}
      <DisputeSection booking={booking} headingRef={disputeRef} />
      <Cancellation booking={booking} />
      <Payment booking={booking} />
      <BookingReviewsSection booking={booking} />
      <Summary booking={booking} />
      {messages?.(booking)}
      {booking.has_photo ? (
        <Card>
          <CardHeader>
            <CardTitle>Photo of the handoff</CardTitle>
          </CardHeader>
          <CardContent>
            <img
              src={`/api/bookings/${encodeURIComponent(booking.id)}/photo`}
              alt={`The handoff of "${request.title}", photographed by the driver`}
              loading="lazy"
              className="max-h-96 w-auto max-w-full rounded-md border"
            />
          </CardContent>
        </Card>
      ) : null}
      <BookingTimeline events={booking.events} />
    </div>
  );
}

function LoadedBookingDetail({ id, messages }: { id: string; messages?: Slot }) {
  return (
    <DetailQuery query={useBookingDetail(id)} what="this booking" notFound={NOT_FOUND}>
      {(booking) => <BookingDetailView booking={booking} messages={messages} />}
    </DetailQuery>
  );
}

/**
 * '/dashboard/bookings/:id', the same page for the driver and the requester: the request, both people, the status,
 * what I may do now ('Report a problem' among it), the delivery code (requester), the reported problem and its
 * decision, who cancelled and why, the payment, the reviews (once completed), the handoff photo, the timeline.
 */
export function BookingDetailPage({ id, messages }: { id: string; messages?: Slot }) {
  if (!idParamSchema.safeParse({ id }).success) return <DetailNotFound {...NOT_FOUND} />;
  return <LoadedBookingDetail id={id} messages={messages} />;
}
