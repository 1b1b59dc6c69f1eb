import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { DISPUTE_DETAILS_LABEL, DISPUTE_DETAILS_MAX, disputeResponseSchema } from '@shared/disputes';
import { CountedTextarea } from '@/components/form/counted-textarea';
import { FormDialogFooter } from '@/components/form-dialog';
import { messageOf } from '@/lib/form-errors';
import { disputeFormSubmit } from '../lib/dispute-form';
import { useRespondToDispute } from '../api/disputes';
import { PhotosField, photosSchema } from './photos-field';

const schema = disputeResponseSchema.extend({ photos: photosSchema });
type ResponseFormInput = z.input<typeof schema>;
const ORDER = ['details', 'photos'] as const;
const EMPTY: ResponseFormInput = { details: '', photos: undefined };
const DETAILS_HINT = `Required. Your side of what happened (up to ${DISPUTE_DETAILS_MAX.toLocaleString('en-US')} characters).`;

/**
 * The form of the 'Response' dialog (loaded when it first opens): the other person's one answer to a reported
 * problem, 'Details' and up to three 'Photos'. It stays open until the response is sent.
 */
export function DisputeResponseForm({ bookingId, onSent }: { bookingId: string; onSent: () => void }) {
  const respond = useRespondToDispute(bookingId);
  const form = useForm<ResponseFormInput, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: EMPTY,
  });
  const details = useWatch({ control: form.control, name: 'details' }) ?? '';

  // The form may arrive after the dialog opened (its code loads then): focus its first field, as the dialog would.
  useEffect(() => form.setFocus('details'), [form]);

  const submit = disputeFormSubmit(form, ORDER, (values) => respond.mutateAsync(values), onSent);

  return (
    <form noValidate className="space-y-4" onSubmit={submit}>
      <CountedTextarea
        id="dispute-response-details"
        label={DISPUTE_DETAILS_LABEL}
        hint={DETAILS_HINT}
        error={messageOf(form.formState.errors, 'details')}
        limit={DISPUTE_DETAILS_MAX}
        length={details.length}
        aria-required
        {...form.register('details')}
      />
      <PhotosField
        id="dispute-response-photos"
        error={messageOf(form.formState.errors, 'photos')}
        {...form.register('photos')}
      />
      <FormDialogFooter busy={respond.isPending} submitLabel="Send response" busyLabel="Sending..." />
    </form>
  );
}
