import { localToday } from '../../../../shared/dates';
import { rideInputSchema, type RideInput } from '../../../../shared/marketplace';
import { FormCard } from '@/components/form/form-card';
import { InputField, TextareaField } from '@/components/form/input-field';
import { useCardForm } from '@/components/form/use-card-form';
import { usePostRide } from '../api/post-ride';

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
  const { form, submit, errors } = useCardForm({ schema, empty: EMPTY, order: ORDER, mutation: postRide, onDone });

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
      <InputField
        id="ride-origin"
        label="Origin"
        error={errors.origin?.message}
        required
        {...form.register('origin')}
      />
      <InputField
        id="ride-destination"
        label="Destination"
        error={errors.destination?.message}
        required
        {...form.register('destination')}
      />
      <InputField
        id="ride-date"
        label="Departure Date"
        error={errors.departure_date?.message}
        type="date"
        min={localToday()}
        required
        {...form.register('departure_date')}
      />
      <InputField
        id="ride-time"
        label="Departure Time (optional)"
        error={errors.departure_time?.message}
        type="time"
        {...form.register('departure_time')}
      />
      <InputField
        wide
        id="ride-space"
        label="Available Space"
        error={errors.available_space?.message}
        placeholder="e.g., Trunk space, back seat"
        {...form.register('available_space')}
      />
      <TextareaField wide id="ride-notes" label="Notes" error={errors.notes?.message} {...form.register('notes')} />
    </FormCard>
  );
}
