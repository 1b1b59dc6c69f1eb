import { localToday } from '@shared/dates';
import { requestInputSchema, type RequestInput } from '@shared/marketplace';
import { SchemaFormCard, type FormFieldSpec } from '@/components/form/schema-form-card';
import { useCreateRequest } from '../api/create-request';

const schema = requestInputSchema(localToday);

/**
 * In the schema's order, which is the order the first failing rule is reported in. The locations suggest places;
 * a chosen one's id goes with the text (null for free text).
 */
const fields = (): [FormFieldSpec<keyof RequestInput>, ...FormFieldSpec<keyof RequestInput>[]] => [
  { name: 'title', id: 'request-title', label: 'Title', required: true, wide: true },
  { name: 'description', id: 'request-description', label: 'Description', required: true, multiline: true, wide: true },
  {
    name: 'pickup_location',
    id: 'request-pickup',
    label: 'Pickup Location',
    required: true,
    placeId: 'pickup_place_id',
  },
  {
    name: 'delivery_location',
    id: 'request-delivery',
    label: 'Delivery Location',
    required: true,
    placeId: 'delivery_place_id',
  },
  { name: 'needed_by_date', id: 'request-needed-by', label: 'Needed By (optional)', type: 'date', min: localToday() },
  {
    name: 'compensation',
    id: 'request-compensation',
    label: 'Compensation (optional)',
    hint: 'Up to $10,000, with at most 2 decimal places.',
    type: 'number',
    step: '0.01',
    min: '0',
    max: '10000',
    inputMode: 'decimal',
    placeholder: '0.00',
  },
];

/** Spec 'Create a Delivery Request' form; the shared schema (noValidate) gives every message. */
export function RequestForm({ id, onDone }: { id: string; onDone: () => void }) {
  return (
    <SchemaFormCard
      id={id}
      title="Create a Delivery Request"
      schema={schema}
      fields={fields()}
      mutation={useCreateRequest()}
      submitLabel="Submit Request"
      busyLabel="Submitting..."
      onDone={onDone}
    />
  );
}
