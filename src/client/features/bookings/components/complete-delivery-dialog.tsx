import { zodResolver } from '@hookform/resolvers/zod';
import { PackageCheck } from 'lucide-react';
import { useRef, useState } from 'react';
import type * as React from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { completeBookingSchema, LIFECYCLE_ERRORS, PHOTO_MAX_BYTES, PHOTO_TYPES } from '@shared/lifecycle';
import { Field, fieldAria } from '@/components/form/field';
import { FormDialogContent, sendThenClose } from '@/components/form-dialog';
import { Button } from '@/components/ui/button';
import { Dialog, DialogTrigger } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { ApiError } from '@/lib/api-client';
import { messageOf, toastFirstError } from '@/lib/form-errors';

const isPhoto = (file: File) => (PHOTO_TYPES as readonly string[]).includes(file.type) && file.size <= PHOTO_MAX_BYTES;

/** The shared code rule, plus the photo checked here as the server will (it re-checks the bytes themselves). */
const schema = completeBookingSchema.extend({
  photo: z
    .custom<FileList | undefined>()
    .refine((files) => !files?.[0] || isPhoto(files[0]), LIFECYCLE_ERRORS.invalid_image.message),
});
type CompleteInput = z.input<typeof schema>;
export type CompleteValues = { code: string; photo: File | null };

const CODE_HINT = 'The 6-digit code the requester shows you at handoff.';
const PHOTO_HINT = 'Optional. JPEG, PNG or WebP, up to 10 MB.';
const EMPTY: CompleteInput = { code: '', photo: undefined };

/**
 * 'Complete delivery' (the driver, once confirmed): the 'Delivery code' and an optional 'Photo of the handoff'. A
 * wrong code keeps the dialog open with the code selected for another try (the toast says it was wrong).
 */
export function CompleteDeliveryDialog({
  disabled,
  send,
  onDone,
}: {
  disabled: boolean;
  send: (values: CompleteValues) => Promise<unknown>;
  onDone: () => void;
}) {
  const [open, setOpen] = useState(false);
  const done = useRef(false);
  const form = useForm<CompleteInput, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: EMPTY,
  });
  const busy = form.formState.isSubmitting;
  const errorOf = (name: keyof CompleteInput & string) => messageOf(form.formState.errors, name);

  // Built per submit (an event), not during render: its callbacks use the `done` ref.
  const submit = (event: React.FormEvent<HTMLFormElement>) =>
    form.handleSubmit(
      // A handover kept to send later (no signal at the door) is done as far as the dialog goes.
      ({ code, photo }) =>
        sendThenClose(
          () => send({ code, photo: photo?.[0] ?? null }),
          () => {
            done.current = true;
            form.reset(EMPTY);
            setOpen(false);
          },
          (err) => {
            if (err instanceof ApiError && err.code === 'wrong_delivery_code')
              form.setFocus('code', { shouldSelect: true });
          },
        ),
      (errors) => toastFirstError(errors, ['code', 'photo']),
    )(event);

  const codeError = errorOf('code');
  const photoError = errorOf('photo');
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) form.reset(EMPTY);
        setOpen(next);
      }}
    >
      <DialogTrigger asChild>
        <Button disabled={disabled}>
          <PackageCheck aria-hidden />
          Complete delivery
        </Button>
      </DialogTrigger>
      <FormDialogContent
        title="Complete delivery"
        description="Ask the requester for their delivery code when you hand the item over."
        onSubmit={submit}
        busy={busy}
        submitLabel="Complete delivery"
        busyLabel="Completing..."
        onCloseAutoFocus={(event) => {
          if (!done.current) return;
          done.current = false;
          event.preventDefault();
          onDone();
        }}
      >
        <Field id="complete-code" label="Delivery code" error={codeError} hint={CODE_HINT}>
          <Input
            {...fieldAria('complete-code', codeError, CODE_HINT)}
            inputMode="numeric"
            autoComplete="one-time-code"
            aria-required
            className="font-mono tracking-widest"
            {...form.register('code')}
          />
        </Field>
        <Field id="complete-photo" label="Photo of the handoff" error={photoError} hint={PHOTO_HINT}>
          <Input
            {...fieldAria('complete-photo', photoError, PHOTO_HINT)}
            type="file"
            accept={PHOTO_TYPES.join(',')}
            className="h-auto file:mr-3 file:rounded file:border-0 file:bg-secondary file:px-3 file:py-1 file:text-sm file:font-medium"
            {...form.register('photo')}
          />
        </Field>
      </FormDialogContent>
    </Dialog>
  );
}
