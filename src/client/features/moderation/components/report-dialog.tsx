import { REPORT_DETAILS_MAX, REPORT_REASONS, reportInputSchema } from '@shared/moderation';
import { ReasonDetailsDialog } from '@/components/reason-details-dialog';
import { useReport } from '../api/report';

const formSchema = reportInputSchema.pick({ reason: true, details: true });
const DETAILS_HINT = `Required, up to ${REPORT_DETAILS_MAX} characters.`;

/**
 * 'Report {name}': a reason and what happened, sent with the booking it is about when there is one. About a review
 * ('Report review by {name}'), `person` is its author and `reviewId` goes with the report.
 */
export function ReportDialog({
  person,
  bookingId,
  reviewId,
  open,
  onOpenChange,
  onCloseAutoFocus,
}: {
  person: { id: string; full_name: string };
  bookingId?: string;
  reviewId?: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCloseAutoFocus: (event: Event) => void;
}) {
  const report = useReport();
  return (
    <ReasonDetailsDialog
      open={open}
      onOpenChange={onOpenChange}
      idPrefix="report"
      title={reviewId ? `Report review by ${person.full_name}` : `Report ${person.full_name}`}
      description="Tell us what happened. Only the RuralRoute team reads reports."
      reasons={REPORT_REASONS}
      schema={formSchema}
      detailsHint={DETAILS_HINT}
      detailsRequired
      submitLabel="Send report"
      busyLabel="Sending..."
      send={(values) =>
        report.mutateAsync({
          ...values,
          reported_user_id: person.id,
          ...(bookingId ? { booking_id: bookingId } : {}),
          ...(reviewId ? { review_id: reviewId } : {}),
        })
      }
      onCloseAutoFocus={onCloseAutoFocus}
    />
  );
}
