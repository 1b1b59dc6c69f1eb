import { zodResolver } from '@hookform/resolvers/zod';
import { useRef } from 'react';
import type * as React from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import type { z } from 'zod';
import { Field, fieldAria } from '@/components/form/field';
import { FormDialogContent, sendThenClose } from '@/components/form-dialog';
import { Dialog, DialogTrigger } from '@/components/ui/dialog';
import { Textarea } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/select';
import { messageOf, toastFirstError } from '@/lib/form-errors';

/** What the form holds: a reason code ('' until one is chosen) and free text. */
export interface ReasonDetailsInput {
  reason: string;
  details: string;
}

const EMPTY: ReasonDetailsInput = { reason: '', details: '' };

/**
 * A dialog asking 'Reason' (a select with nothing preselected) and 'Details', checked by a shared schema: the first
 * failing rule is the 'Validation Error' toast and each message sits under its field ('Cancel booking', 'Report').
 * It stays open, busy, until `send` settles ('Cancel' and Escape still close it: nobody waits on a weak signal),
 * and keeps what was typed when it fails (`send` has toasted why).
 * Controlled: the caller opens it from a trigger given here or from elsewhere (a menu item).
 */
export function ReasonDetailsDialog<Values>({
  open,
  onOpenChange,
  trigger,
  idPrefix,
  title,
  description,
  reasons,
  schema,
  detailsHint,
  detailsRequired = false,
  cancelLabel = 'Cancel',
  submitLabel,
  busyLabel,
  destructive = false,
  send,
  onCloseAutoFocus,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  trigger?: React.ReactNode;
  /** Makes the fields' ids unique on the page, e.g. 'cancel' -> 'cancel-reason'. */
  idPrefix: string;
  title: string;
  description: string;
  /** Code -> label, in the order shown. */
  reasons: Record<string, string>;
  schema: z.ZodType<Values>;
  detailsHint: string;
  detailsRequired?: boolean;
  cancelLabel?: string;
  submitLabel: string;
  busyLabel: string;
  destructive?: boolean;
  send: (values: Values) => Promise<unknown>;
  /** Where focus goes on close; `succeeded` tells a sent form from a dismissed one. Default: back to the trigger. */
  onCloseAutoFocus?: (event: Event, succeeded: boolean) => void;
}) {
  const succeeded = useRef(false);
  const form = useForm<ReasonDetailsInput, unknown, Values>({
    // The schema's input types are narrower (a reason code) than the form's '' start; it checks them all.
    resolver: zodResolver(schema as never) as unknown as Resolver<ReasonDetailsInput, unknown, Values>,
    defaultValues: EMPTY,
  });
  const busy = form.formState.isSubmitting;
  const errorOf = (name: keyof ReasonDetailsInput & string) => messageOf(form.formState.errors, name);

  // Built per submit (an event), not during render: its callbacks use the `succeeded` ref.
  const submit = (event: React.FormEvent<HTMLFormElement>) =>
    form.handleSubmit(
      (values) =>
        sendThenClose(
          () => send(values),
          () => {
            succeeded.current = true;
            form.reset(EMPTY);
            onOpenChange(false);
          },
        ),
      (errors) => toastFirstError(errors, ['reason', 'details']),
    )(event);

  const reasonId = `${idPrefix}-reason`;
  const detailsId = `${idPrefix}-details`;
  const reasonError = errorOf('reason');
  const detailsError = errorOf('details');
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) form.reset(EMPTY);
        onOpenChange(next);
      }}
    >
      {trigger ? <DialogTrigger asChild>{trigger}</DialogTrigger> : null}
      <FormDialogContent
        title={title}
        description={description}
        onSubmit={submit}
        busy={busy}
        submitLabel={submitLabel}
        busyLabel={busyLabel}
        cancelLabel={cancelLabel}
        destructive={destructive}
        onCloseAutoFocus={(event) => {
          const ok = succeeded.current;
          succeeded.current = false;
          onCloseAutoFocus?.(event, ok);
        }}
      >
        <Field id={reasonId} label="Reason" error={reasonError}>
          <NativeSelect {...fieldAria(reasonId, reasonError)} aria-required {...form.register('reason')}>
            <option value="">Choose a reason</option>
            {Object.entries(reasons).map(([code, label]) => (
              <option key={code} value={code}>
                {label}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field id={detailsId} label="Details" error={detailsError} hint={detailsHint}>
          <Textarea
            {...fieldAria(detailsId, detailsError, detailsHint)}
            aria-required={detailsRequired || undefined}
            {...form.register('details')}
          />
        </Field>
      </FormDialogContent>
    </Dialog>
  );
}
