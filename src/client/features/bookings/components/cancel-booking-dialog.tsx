import { Ban } from 'lucide-react';
import { useState } from 'react';
import type { z } from 'zod';
import { CANCEL_DETAILS_MAX, CANCEL_REASONS, cancelBookingSchema } from '@shared/lifecycle';
import { ReasonDetailsDialog } from '@/components/reason-details-dialog';
import { Button } from '@/components/ui/button';

type CancelValues = z.output<typeof cancelBookingSchema>;

const DETAILS_HINT = `Optional, up to ${CANCEL_DETAILS_MAX} characters.`;

/**
 * 'Cancel booking': a required 'Reason' and optional 'Details'. The dialog stays open until the cancel succeeds;
 * then `onDone` says where focus goes, since this button is gone from a cancelled booking.
 */
export function CancelBookingDialog({
  refundNotice,
  disabled,
  send,
  onDone,
}: {
  /** A paid booking: what the cancellation gives back ('You will be refunded $13.75.'). */
  refundNotice?: string | null;
  disabled: boolean;
  send: (values: CancelValues) => Promise<unknown>;
  onDone: () => void;
}) {
  const [open, setOpen] = useState(false);
  return (
    <ReasonDetailsDialog
      open={open}
      onOpenChange={setOpen}
      trigger={
        <Button variant="destructive" disabled={disabled}>
          <Ban aria-hidden />
          Cancel booking
        </Button>
      }
      idPrefix="cancel"
      title="Cancel this booking?"
      description={`Say why, so the other person knows. The request opens again for drivers to offer.${refundNotice ? ` ${refundNotice}` : ''}`}
      reasons={CANCEL_REASONS}
      schema={cancelBookingSchema}
      detailsHint={DETAILS_HINT}
      cancelLabel="Keep booking"
      submitLabel="Cancel booking"
      busyLabel="Cancelling..."
      destructive
      send={send}
      onCloseAutoFocus={(event, succeeded) => {
        if (!succeeded) return;
        event.preventDefault();
        onDone();
      }}
    />
  );
}
