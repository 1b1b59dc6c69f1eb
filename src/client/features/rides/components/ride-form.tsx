import type { z } from 'zod';
import { localToday } from '@shared/dates';
import { rideInputSchema, type RideInput } from '@shared/marketplace';
import { isPaidPlan } from '@shared/plans';
import { SchemaFormCard, type FormExtra, type FormFieldSpec } from '@/components/form/schema-form-card';
import { useSession } from '@/features/auth';
import { usePostRide } from '../api/post-ride';
import { RideStopsField, RideStopsUpsell } from './ride-stops-field';

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

/**
 * A ride's stops, after Destination: the field list for Plus and Community members (the session's plan), the line to
 * the plans for everyone else. The server checks the plan again (403 plan_required).
 */
function stopsPart(paid: boolean): FormExtra<RideInput, z.output<typeof schema>> {
  return {
    after: 'destination',
    name: 'stops',
    empty: [],
    render: (form) => (paid ? <RideStopsField form={form} idPrefix="ride" /> : <RideStopsUpsell />),
  };
}

/** Spec 'My Rides' form. Validation is the shared schema's (noValidate), so its messages are the ones users see. */
export function RideForm({ id, onDone }: { id: string; onDone: () => void }) {
  const paid = isPaidPlan(useSession().data?.user?.plan);
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
      extra={stopsPart(paid)}
    />
  );
}
