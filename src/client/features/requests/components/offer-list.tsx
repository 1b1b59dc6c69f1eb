import { Check, X } from 'lucide-react';
import type { Offer } from '@shared/lifecycle';
import type { PaymentQuote } from '@shared/payments';
import { ConfirmActionButton } from '@/components/confirm-action-button';
import { PayAndChooseDialog } from '@/components/pay-and-choose-dialog';
import { ProfileLink } from '@/components/profile-link';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { RatingSummaryText } from '@/features/reviews';
import { useBookingAction } from '@/lib/booking-actions';
import { formatInstant } from '@/lib/format';

/**
 * The pending offers on my request: who offered (linking to their profile, with their rating, so I see their record
 * before choosing) and when, with 'Choose this driver' and 'Decline'. `onDone` takes focus after an answer, since the
 * answered offer leaves the list.
 */
export function OfferList({
  offers,
  title,
  quote,
  onDone,
}: {
  offers: Offer[];
  title: string;
  /** What choosing costs, when the request has compensation: choosing then pays (docs/payments.md). */
  quote: PaymentQuote | null;
  onDone: () => void;
}) {
  // One mutation for the list: while one offer is being answered, none of the others can be.
  const action = useBookingAction();
  const sending = action.isPending ? action.variables : undefined;
  return (
    <ul className="space-y-3" aria-label="Pending offers">
      {offers.map((offer) => {
        const name = offer.driver.full_name;
        const declining = sending?.bookingId === offer.booking_id && sending.action === 'decline';
        return (
          <li key={offer.booking_id}>
            <Card className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between">
              <div className="min-w-0">
                <p className="break-words">
                  <ProfileLink person={offer.driver} />
                </p>
                <p>
                  <RatingSummaryText rating={offer.driver_rating} />
                </p>
                <p className="text-sm text-muted-foreground">
                  Offered <time dateTime={offer.offered_at}>{formatInstant(offer.offered_at)}</time>
                </p>
              </div>
              <div className="flex flex-wrap gap-2">
                {quote ? (
                  <PayAndChooseDialog
                    bookingId={offer.booking_id}
                    driverName={name}
                    quote={quote}
                    label={`Choose this driver: ${name}`}
                    disabled={action.isPending}
                    onDone={onDone}
                  />
                ) : (
                  <ConfirmActionButton
                    label={`Choose this driver: ${name}`}
                    title={`Choose ${name}?`}
                    description={`${name} will deliver "${title}". Your other pending offers will be declined.`}
                    busyLabel="Confirming..."
                    disabled={action.isPending}
                    onConfirm={() => action.mutateAsync({ bookingId: offer.booking_id, action: 'choose' })}
                    onDone={onDone}
                  >
                    <Check aria-hidden />
                    Choose this driver
                  </ConfirmActionButton>
                )}
                <Button
                  variant="outline"
                  aria-label={`${declining ? 'Declining...' : 'Decline'} offer from ${name}`}
                  disabled={action.isPending}
                  onClick={() =>
                    action.mutate({ bookingId: offer.booking_id, action: 'decline' }, { onSuccess: onDone })
                  }
                >
                  <X aria-hidden />
                  {declining ? 'Declining...' : 'Decline'}
                </Button>
              </div>
            </Card>
          </li>
        );
      })}
    </ul>
  );
}
