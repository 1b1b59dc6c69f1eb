import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { localToday } from '../../../../shared/dates';
import { rideInputSchema, type RideInput } from '../../../../shared/marketplace';
import { Field, fieldAria } from '@/components/form/field';
import { FormCard } from '@/components/form/form-card';
import { Input, Textarea } from '@/components/ui/input';
import { toastFirstError } from '@/lib/form-errors';
import { usePostRide, type RideValues } from '../api/post-ride';

// "Today" is the browser's: a user must be able to post for their own today, whatever the server's timezone.
const schema = rideInputSchema(localToday);
const ORDER = ['origin', 'destination', 'departure_date', 'departure_time', 'available_space', 'notes'] as const;
const EMPTY: RideInput = {
  origin: '',
  destination: '',
  departure_date: '',
  departure_time: '',
  available_space: '',
  notes: '',
};

/** Spec 'My Rides' form. Validation is the shared schema's (noValidate), so its messages are the ones users see. */
export function RideForm({ id, onDone }: { id: string; onDone: () => void }) {
  const postRide = usePostRide();
  const form = useForm<RideInput, unknown, RideValues>({ resolver: zodResolver(schema), defaultValues: EMPTY });
  const { errors } = form.formState;
  const { setFocus } = form;

  useEffect(() => setFocus('origin'), [setFocus]);

  const submit = form.handleSubmit(
    (values) =>
      postRide.mutate(values, {
        onSuccess: () => {
          form.reset(EMPTY);
          onDone();
        },
      }),
    (errs) => toastFirstError(errs, ORDER),
  );

  return (
    <FormCard
      id={id}
      title="Post a New Ride"
      onSubmit={submit}
      busy={postRide.isPending}
      submitLabel="Post Ride"
      busyLabel="Posting..."
      onCancel={onDone}
    >
      <Field id="ride-origin" label="Origin" error={errors.origin?.message}>
        <Input {...fieldAria('ride-origin', errors.origin?.message)} required {...form.register('origin')} />
      </Field>
      <Field id="ride-destination" label="Destination" error={errors.destination?.message}>
        <Input
          {...fieldAria('ride-destination', errors.destination?.message)}
          required
          {...form.register('destination')}
        />
      </Field>
      <Field id="ride-date" label="Departure Date" error={errors.departure_date?.message}>
        <Input
          {...fieldAria('ride-date', errors.departure_date?.message)}
          type="date"
          min={localToday()}
          required
          {...form.register('departure_date')}
        />
      </Field>
      <Field id="ride-time" label="Departure Time (optional)" error={errors.departure_time?.message}>
        <Input
          {...fieldAria('ride-time', errors.departure_time?.message)}
          type="time"
          {...form.register('departure_time')}
        />
      </Field>
      <div className="md:col-span-2">
        <Field id="ride-space" label="Available Space" error={errors.available_space?.message}>
          <Input
            {...fieldAria('ride-space', errors.available_space?.message)}
            placeholder="e.g., Trunk space, back seat"
            {...form.register('available_space')}
          />
        </Field>
      </div>
      <div className="md:col-span-2">
        <Field id="ride-notes" label="Notes" error={errors.notes?.message}>
          <Textarea {...fieldAria('ride-notes', errors.notes?.message)} {...form.register('notes')} />
        </Field>
      </div>
    </FormCard>
  );
}
