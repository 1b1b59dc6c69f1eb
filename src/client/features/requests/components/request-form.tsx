import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { localToday } from '../../../../shared/dates';
import { requestInputSchema, type RequestInput } from '../../../../shared/marketplace';
import { Field, fieldAria } from '@/components/form/field';
import { FormCard } from '@/components/form/form-card';
import { Input, Textarea } from '@/components/ui/input';
import { toastFirstError } from '@/lib/form-errors';
import { useCreateRequest, type RequestValues } from '../api/create-request';

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
  const form = useForm<RequestInput, unknown, RequestValues>({ resolver: zodResolver(schema), defaultValues: EMPTY });
  const { errors } = form.formState;
  const { setFocus } = form;

  useEffect(() => setFocus('title'), [setFocus]);

  const submit = form.handleSubmit(
    (values) =>
      createRequest.mutate(values, {
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
      title="Create a Delivery Request"
      onSubmit={submit}
      busy={createRequest.isPending}
      submitLabel="Submit Request"
      busyLabel="Submitting..."
      onCancel={onDone}
    >
      <div className="md:col-span-2">
        <Field id="request-title" label="Title" error={errors.title?.message}>
          <Input {...fieldAria('request-title', errors.title?.message)} required {...form.register('title')} />
        </Field>
      </div>
      <div className="md:col-span-2">
        <Field id="request-description" label="Description" error={errors.description?.message}>
          <Textarea
            {...fieldAria('request-description', errors.description?.message)}
            required
            {...form.register('description')}
          />
        </Field>
      </div>
      <Field id="request-pickup" label="Pickup Location" error={errors.pickup_location?.message}>
        <Input
          {...fieldAria('request-pickup', errors.pickup_location?.message)}
          required
          {...form.register('pickup_location')}
        />
      </Field>
      <Field id="request-delivery" label="Delivery Location" error={errors.delivery_location?.message}>
        <Input
          {...fieldAria('request-delivery', errors.delivery_location?.message)}
          required
          {...form.register('delivery_location')}
        />
      </Field>
      <Field id="request-needed-by" label="Needed By (optional)" error={errors.needed_by_date?.message}>
        <Input
          {...fieldAria('request-needed-by', errors.needed_by_date?.message)}
          type="date"
          min={localToday()}
          {...form.register('needed_by_date')}
        />
      </Field>
      <Field
        id="request-compensation"
        label="Compensation (optional)"
        error={errors.compensation?.message}
        hint={COMPENSATION_HINT}
      >
        <Input
          {...fieldAria('request-compensation', errors.compensation?.message, COMPENSATION_HINT)}
          type="number"
          step="0.01"
          min="0"
          max="10000"
          inputMode="decimal"
          placeholder="0.00"
          {...form.register('compensation')}
        />
      </Field>
    </FormCard>
  );
}
