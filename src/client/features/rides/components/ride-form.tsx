import { localToday } from '@shared/dates';
import { rideInputSchema, type RideInput } from '@shared/marketplace';
import { SchemaFormCard, type FormFieldSpec } from '@/components/form/schema-form-card';
import { usePostRide } from '../api/post-ride';

// "Today" is the browser's: a user must be able to post for their own today, whatever the server's timezone.
const schema = rideInputSchema(localToday);

/**
 * In the schema's order, which is the order the first failing rule is reported in. Origin and Destination suggest
 * places; a chosen one's id goes with the text (null for free text).
 */
const fields = (): [FormFieldSpec<keyof RideInput>, ...FormFieldSpec<keyof RideInput>[]] => [
  { name: 'origin', id: 'ride-origin', label: 'Origin', required: true, placeId: 'origin_place_id' },
  {
    name: 'destination',
    id: 'ride-destination',
    label: 'Destination',
    required: true,
    placeId: 'destination_place_id',
  },
  { name: 'departure_date', id: 'ride-date', label: 'Departure Date', type: 'date', min: localToday(), required: true },
  { name: 'departure_time', id: 'ride-time', label: 'Departure Time (optional)', type: 'time' },
  {
    name: 'available_space',
    id: 'ride-space',
    label: 'Available Space',
    placeholder: 'e.g., Trunk space, back seat',
    wide: true,
  },
  { name: 'notes', id: 'ride-notes', label: 'Notes', multiline: true, wide: true },
];

/** Spec 'My Rides' form. Validation is the shared schema's (noValidate), so its messages are the ones users see. */
export function RideForm({ id, onDone }: { id: string; onDone: () => void }) {
  return (
    <SchemaFormCard
      id={id}
      title="Post a New Ride"
      schema={schema}
      fields={fields()}
      mutation={usePostRide()}
      submitLabel="Post Ride"
      busyLabel="Posting..."
      onDone={onDone}
    />
  );
}
