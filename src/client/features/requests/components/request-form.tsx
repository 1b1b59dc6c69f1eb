import { localToday } from '../../../../shared/dates';
import { requestInputSchema, type RequestInput } from '../../../../shared/marketplace';
import { FormCard } from '@/components/form/form-card';
import { InputField, TextareaField } from '@/components/form/input-field';
import { useCardForm } from '@/components/form/use-card-form';
import { useCreateRequest } from '../api/create-request';

const schema = requestInputSchema(localToday);
const ORDER = [
  'title',
  'description',
  'pickup_location',
  'delivery_location',
  'needed_by_date',
  'compensation',
] as const;
const EMPTY: RequestInput = {
  title: '',
  description: '',
  pickup_location: '',
  delivery_location: '',
  needed_by_date: '',
  compensation: '',
};
const COMPENSATION_HINT = 'Up to $10,000, with at most 2 decimal places.';

/** Spec 'Create a Delivery Request' form; the shared schema (noValidate) gives every message. */
export function RequestForm({ id, onDone }: { id: string; onDone: () => void }) {
  const createRequest = useCreateRequest();
  const { form, submit, errors } = useCardForm({
    schema,
    empty: EMPTY,
    order: ORDER,
    mutation: createRequest,
    onDone,
  });

  return (
    <FormCard
      id={id}
      title="Create a Delivery Request"
      onSubmit={submit}
      busy={createRequest.isPending}
      submitLabel="Submit Request"
      busyLabel="Submitting..."
      onCancel={onDone}
    >
      <InputField
        wide
        id="request-title"
        label="Title"
        error={errors.title?.message}
        required
        {...form.register('title')}
      />
      <TextareaField
        wide
        id="request-description"
        label="Description"
        error={errors.description?.message}
        required
        {...form.register('description')}
      />
      <InputField
        id="request-pickup"
        label="Pickup Location"
        error={errors.pickup_location?.message}
        required
        {...form.register('pickup_location')}
      />
      <InputField
        id="request-delivery"
        label="Delivery Location"
        error={errors.delivery_location?.message}
        required
        {...form.register('delivery_location')}
      />
      <InputField
        id="request-needed-by"
        label="Needed By (optional)"
        error={errors.needed_by_date?.message}
        type="date"
        min={localToday()}
        {...form.register('needed_by_date')}
      />
      <InputField
        id="request-compensation"
        label="Compensation (optional)"
        error={errors.compensation?.message}
        hint={COMPENSATION_HINT}
        type="number"
        step="0.01"
        min="0"
        max="10000"
        inputMode="decimal"
        placeholder="0.00"
        {...form.register('compensation')}
      />
    </FormCard>
  );
}
