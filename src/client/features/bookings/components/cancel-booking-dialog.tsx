import { zodResolver } from '@hookform/resolvers/zod';
import { Ban } from 'lucide-react';
import { useRef, useState } from 'react';
import type * as React from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import {
  CANCEL_DETAILS_MAX,
  CANCEL_REASONS,
  cancelBookingSchema,
  type CancelBookingInput,
} from '../../../../shared/lifecycle';
import { Field, fieldAria } from '@/components/form/field';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog';
import { Textarea } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/select';
import { toastFirstError } from '@/lib/form-errors';

type CancelValues = z.output<typeof cancelBookingSchema>;

const EMPTY: CancelBookingInput = { reason: '', details: '' };
const DETAILS_HINT = `Optional, up to ${CANCEL_DETAILS_MAX} characters.`;

/**
 * 'Cancel booking': a required 'Reason' and optional 'Details', checked by the shared schema (the first failing
 * rule is the 'Validation Error' toast and each message sits under its field). The dialog stays open until the
 * cancel succeeds; then `onDone` says where focus goes, since this button is gone from a cancelled booking.
 */
export function CancelBookingDialog({
  disabled,
  send,
  onDone,
}: {
  disabled: boolean;
  send: (values: CancelValues) => Promise<unknown>;
  onDone: () => void;
}) {
  const [open, setOpen] = useState(false);
  const done = useRef(false);
  const form = useForm<CancelBookingInput, unknown, CancelValues>({
    resolver: zodResolver(cancelBookingSchema),
    defaultValues: EMPTY,
  });
  const busy = form.formState.isSubmitting;
  const errorOf = (name: keyof CancelBookingInput) => {
    const message = form.formState.errors[name]?.message;
    return typeof message === 'string' ? message : undefined;
  };

  // Built per submit (an event), not during render: its callbacks use the `done` ref.
  const submit = (event: React.FormEvent<HTMLFormElement>) =>
    form.handleSubmit(
      async (values) => {
        try {
          await send(values);
        } catch {
          return; // Toasted; keep the dialog and what was typed.
        }
        done.current = true;
        form.reset(EMPTY);
        setOpen(false);
      },
      (errors) => toastFirstError(errors, ['reason', 'details']),
    )(event);

  const reasonError = errorOf('reason');
  const detailsError = errorOf('details');
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (busy) return;
        if (!next) form.reset(EMPTY);
        setOpen(next);
      }}
    >
      <DialogTrigger asChild>
        <Button variant="destructive" disabled={disabled}>
          <Ban aria-hidden />
          Cancel booking
        </Button>
      </DialogTrigger>
      <DialogContent
        onCloseAutoFocus={(event) => {
          if (!done.current) return;
          done.current = false;
          event.preventDefault();
          onDone();
        }}
      >
        <DialogHeader>
          <DialogTitle>Cancel this booking?</DialogTitle>
          <DialogDescription>
            Say why, so the other person knows. The request opens again for drivers to offer.
          </DialogDescription>
        </DialogHeader>
        <form noValidate className="space-y-4" onSubmit={submit}>
          <Field id="cancel-reason" label="Reason" error={reasonError}>
            <NativeSelect {...fieldAria('cancel-reason', reasonError)} aria-required {...form.register('reason')}>
              <option value="">Choose a reason</option>
              {Object.entries(CANCEL_REASONS).map(([code, label]) => (
                <option key={code} value={code}>
                  {label}
                </option>
              ))}
            </NativeSelect>
          </Field>
          <Field id="cancel-details" label="Details" error={detailsError} hint={DETAILS_HINT}>
            <Textarea {...fieldAria('cancel-details', detailsError, DETAILS_HINT)} {...form.register('details')} />
          </Field>
          <DialogFooter>
            <DialogClose asChild>
              <Button type="button" variant="outline" disabled={busy}>
                Keep booking
              </Button>
            </DialogClose>
            <Button type="submit" variant="destructive" disabled={busy}>
              {busy ? 'Cancelling...' : 'Cancel booking'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
