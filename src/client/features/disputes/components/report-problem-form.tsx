import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import { useForm, useWatch, type Resolver } from 'react-hook-form';
import { z } from 'zod';
import {
  CLAIM_REASONS,
  DISPUTE_DETAILS_LABEL,
  DISPUTE_DETAILS_MAX,
  DISPUTE_REASON_LABEL,
  DISPUTE_REASONS,
  disputeReportSchema,
  dollarsSchema,
  GUARANTEE_CAP_CENTS,
  ITEM_VALUE_LABEL,
  ITEM_VALUE_MAX_CENTS,
  ITEM_VALUE_MESSAGE,
  REPORT_PROBLEM_LABEL,
  type DisputeReason,
} from '@shared/disputes';
import type { BookingDetail } from '@shared/lifecycle';
import { formatCents } from '@shared/money';
import { CountedTextarea } from '@/components/form/counted-textarea';
import { Field, fieldAria } from '@/components/form/field';
import { FormDialogFooter } from '@/components/form-dialog';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/select';
import { messageOf } from '@/lib/form-errors';
import { disputeFormSubmit } from '../lib/dispute-form';
import { useReportProblem } from '../api/disputes';
import { PhotosField, photosSchema } from './photos-field';

/** What the form holds: a reason code ('' until one is chosen), the texts as typed, the chosen files. */
interface ReportFormInput {
  reason: string;
  details: string;
  item_value: string;
  photos: FileList | undefined;
}
const ORDER = ['reason', 'details', 'item_value', 'photos'] as const;
const EMPTY: ReportFormInput = { reason: '', details: '', item_value: '', photos: undefined };

const itemValueSchema = dollarsSchema(ITEM_VALUE_MESSAGE).refine(
  (cents) => cents > 0 && cents <= ITEM_VALUE_MAX_CENTS,
  ITEM_VALUE_MESSAGE,
);

/**
 * A Delivery Guarantee claim: after completion, the requester's 'Damaged' or 'Not delivered' (the server decides
 * the same way; only then does it read the item's value).
 */
export function isClaim(booking: Pick<BookingDetail, 'status' | 'my_role'>, reason: string): boolean {
  return (
    booking.status === 'completed' &&
    booking.my_role === 'requester' &&
    (CLAIM_REASONS as readonly string[]).includes(reason)
  );
}

/** The shared rules, the photos checked here, and the item's value required (in dollars) for a claim only. */
function reportSchema(booking: Pick<BookingDetail, 'status' | 'my_role'>) {
  return disputeReportSchema
    .extend({ photos: photosSchema })
    .superRefine((values, ctx) => {
      if (!isClaim(booking, values.reason)) return;
      if (!itemValueSchema.safeParse(values.item_value ?? '').success)
        ctx.addIssue({ code: 'custom', path: ['item_value'], message: ITEM_VALUE_MESSAGE });
    })
    .transform((values) => {
      const cents = isClaim(booking, values.reason) ? itemValueSchema.parse(values.item_value ?? '') : null;
      return {
        reason: values.reason,
        details: values.details,
        // Sent as plain dollars ('35.00'), whatever the person typed ('$35', '35.5').
        item_value: cents === null ? null : (cents / 100).toFixed(2),
        photos: values.photos,
      };
    });
}
type ReportValues = z.output<ReturnType<typeof reportSchema>>;

const DETAILS_HINT = `Required. What went wrong, in your own words (up to ${DISPUTE_DETAILS_MAX.toLocaleString('en-US')} characters).`;
const ITEM_VALUE_HINT = 'Required. What the item was worth, in dollars, for example 35.00.';
const claimText = (capCents: number) =>
  `This is a Delivery Guarantee claim: RuralRoute may pay back the item's value, up to ${formatCents(capCents)} for this delivery.`;

/**
 * The form of the 'Report a problem' dialog (loaded when the dialog first opens): 'What happened', 'Details', the
 * 'Item value' of a Delivery Guarantee claim, and up to three 'Photos'. The first failing rule is the 'Validation
 * Error' toast and each message sits under its field; the dialog stays open until the report is sent, and keeps what
 * was typed when it is refused. `onSent` closes it; the page then shows the booking the server answered.
 */
export function ReportProblemForm({ booking, onSent }: { booking: BookingDetail; onSent: () => void }) {
  const report = useReportProblem(booking.id);
  const form = useForm<ReportFormInput, unknown, ReportValues>({
    // The schema's input types are narrower (a reason code) than the form's '' start; it checks them all.
    resolver: zodResolver(reportSchema(booking) as never) as unknown as Resolver<
      ReportFormInput,
      unknown,
      ReportValues
    >,
    defaultValues: EMPTY,
  });
  const reason = useWatch({ control: form.control, name: 'reason' });
  const details = useWatch({ control: form.control, name: 'details' }) ?? '';
  const claim = isClaim(booking, reason);
  const errorOf = (name: (typeof ORDER)[number]) => messageOf(form.formState.errors, name);

  // The form may arrive after the dialog opened (its code loads then): focus its first field, as the dialog would.
  useEffect(() => form.setFocus('reason'), [form]);

  const submit = disputeFormSubmit(
    form,
    ORDER,
    (values) => report.mutateAsync({ ...values, reason: values.reason as DisputeReason }),
    onSent,
  );

  const reasonError = errorOf('reason');
  const detailsError = errorOf('details');
  const itemValueError = errorOf('item_value');
  const itemAria = fieldAria('dispute-item-value', itemValueError, ITEM_VALUE_HINT);
  return (
    <form noValidate className="space-y-4" onSubmit={submit}>
      <Field id="dispute-reason" label={DISPUTE_REASON_LABEL} error={reasonError}>
        <NativeSelect {...fieldAria('dispute-reason', reasonError)} aria-required {...form.register('reason')}>
          <option value="">Choose what happened</option>
          {Object.entries(DISPUTE_REASONS).map(([code, label]) => (
            <option key={code} value={code}>
              {label}
            </option>
          ))}
        </NativeSelect>
      </Field>
      <CountedTextarea
        id="dispute-details"
        label={DISPUTE_DETAILS_LABEL}
        hint={DETAILS_HINT}
        error={detailsError}
        limit={DISPUTE_DETAILS_MAX}
        length={details.length}
        aria-required
        {...form.register('details')}
      />
      {claim ? (
        <div className="space-y-2 rounded-md border border-primary/40 p-3">
          <p id="dispute-claim-text" className="text-sm">
            {claimText(booking.guarantee_cap_cents ?? GUARANTEE_CAP_CENTS)}
          </p>
          <Field id="dispute-item-value" label={ITEM_VALUE_LABEL} error={itemValueError} hint={ITEM_VALUE_HINT}>
            <Input
              {...itemAria}
              aria-describedby={`dispute-claim-text ${itemAria['aria-describedby']}`}
              inputMode="decimal"
              autoComplete="off"
              aria-required
              {...form.register('item_value', { shouldUnregister: true })}
            />
          </Field>
        </div>
      ) : null}
      <PhotosField id="dispute-photos" error={errorOf('photos')} {...form.register('photos')} />
      <FormDialogFooter busy={report.isPending} submitLabel={REPORT_PROBLEM_LABEL} busyLabel="Sending..." />
    </form>
  );
}
