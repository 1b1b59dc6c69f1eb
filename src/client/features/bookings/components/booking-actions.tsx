import { Check, PackageOpen, Undo2, X } from 'lucide-react';
import type { BookingAction, BookingDetail } from '@shared/lifecycle';
import { formatCents } from '@shared/money';
import { ConfirmActionButton } from '@/components/confirm-action-button';
import { PayAndChooseDialog } from '@/components/pay-and-choose-dialog';
import { Button } from '@/components/ui/button';
import { useBookingAction } from '@/lib/booking-actions';
import { CancelBookingDialog } from './cancel-booking-dialog';
import { CompleteDeliveryDialog } from './complete-delivery-dialog';

/** What cancelling a paid booking now would give back (the server worked it out under the cancellation policy). */
function refundNotice(booking: BookingDetail): string | null {
  const amount = booking.payment?.refund_if_cancelled_cents;
  if (amount == null) return null;
  return booking.my_role === 'requester'
    ? `You will be refunded ${formatCents(amount)}.`
    : `The requester will be refunded ${formatCents(amount)}.`;
}

/**
 * The buttons for exactly the actions the server says I may take now (`actions`), in the order of the story.
 * One mutation for all of them: while one is sending, every button is disabled and the pressed one says so.
 */
export function BookingActions({ booking, onDone }: { booking: BookingDetail; onDone: () => void }) {
  const mutation = useBookingAction();
  const bookingId = booking.id;
  const title = booking.request.title;
  const busy = mutation.isPending;
  const sending = (action: BookingAction) => busy && mutation.variables.action === action;
  const run = (action: 'choose' | 'decline' | 'withdraw' | 'pickup' | 'receive') =>
    mutation.mutateAsync({ bookingId, action });
  const can = (action: BookingAction) => booking.actions.includes(action);

  return (
    <div className="flex flex-wrap gap-2">
      {can('choose') && booking.payment_quote ? (
        <PayAndChooseDialog
          bookingId={bookingId}
          driverName={booking.driver.full_name}
          quote={booking.payment_quote}
          disabled={busy}
          onDone={onDone}
        />
      ) : can('choose') ? (
        <ConfirmActionButton
          title={`Choose ${booking.driver.full_name}?`}
          description={`${booking.driver.full_name} will deliver "${title}". Your other pending offers will be declined.`}
          busyLabel="Confirming..."
          disabled={busy}
          onConfirm={() => run('choose')}
          onDone={onDone}
        >
          <Check aria-hidden />
          Choose this driver
        </ConfirmActionButton>
      ) : null}
      {can('decline') ? (
        <Button
          variant="outline"
          disabled={busy}
          onClick={() => mutation.mutate({ bookingId, action: 'decline' }, { onSuccess: onDone })}
        >
          <X aria-hidden />
          {sending('decline') ? 'Declining...' : 'Decline'}
        </Button>
      ) : null}
      {can('withdraw') ? (
        <ConfirmActionButton
          title="Withdraw your offer?"
          description={`${booking.requester.full_name} will no longer be able to choose you for "${title}".`}
          confirmLabel="Withdraw offer"
          busyLabel="Withdrawing..."
          destructive
          variant="outline"
          disabled={busy}
          onConfirm={() => run('withdraw')}
          onDone={onDone}
        >
          <Undo2 aria-hidden />
          Withdraw offer
        </ConfirmActionButton>
      ) : null}
      {can('pickup') ? (
        <Button
          variant="outline"
          disabled={busy}
          onClick={() => mutation.mutate({ bookingId, action: 'pickup' }, { onSuccess: onDone })}
        >
          <PackageOpen aria-hidden />
          {sending('pickup') ? 'Marking...' : 'Mark as picked up'}
        </Button>
      ) : null}
      {can('complete') ? (
        <CompleteDeliveryDialog
          disabled={busy}
          send={(values) => mutation.mutateAsync({ bookingId, action: 'complete', ...values })}
          onDone={onDone}
        />
      ) : null}
      {can('receive') ? (
        <ConfirmActionButton
          title="Mark as received?"
          description={`This completes the delivery of "${title}" without the delivery code. Do it once you have the item.`}
          confirmLabel="Mark as received"
          busyLabel="Completing..."
          disabled={busy}
          onConfirm={() => run('receive')}
          onDone={onDone}
        >
          <Check aria-hidden />
          Mark as received
        </ConfirmActionButton>
      ) : null}
      {can('cancel') ? (
        <CancelBookingDialog
          refundNotice={refundNotice(booking)}
          disabled={busy}
          send={(values) =>
            mutation.mutateAsync({ bookingId, action: 'cancel', reason: values.reason, details: values.details })
          }
          onDone={onDone}
        />
      ) : null}
    </div>
  );
}
