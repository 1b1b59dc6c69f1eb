import { zodResolver } from '@hookform/resolvers/zod';
import { Fragment, useEffect, useState } from 'react';
import type * as React from 'react';
import {
  useController,
  useForm,
  type Control,
  type DefaultValues,
  type FieldValues,
  type Path,
  type UseFormReturn,
} from 'react-hook-form';
import type { z } from 'zod';
import { FormCard } from '@/components/form/form-card';
import { InputField, TextareaField } from '@/components/form/input-field';
import { PlaceField } from '@/components/form/place-field';
import { isQueued } from '@/lib/api-client';
import { toastFirstError } from '@/lib/form-errors';

/** One control of the form: its field name, the props of its input (or textarea), and where it sits. */
export interface FormFieldSpec<Name extends string> extends Omit<React.ComponentProps<'input'>, 'name' | 'id'> {
  name: Name;
  id: string;
  label: string;
  hint?: string;
  wide?: boolean;
  multiline?: boolean;
  /**
   * A location with place suggestions: the field that keeps the chosen place's id (null while the text is free),
   * e.g. 'origin_place_id' for 'origin'.
   */
  placeId?: Name;
}

/**
 * A part of the form that is not one field (a list of fields, such as a ride's stops): drawn after the field named
 * `after`, with its own starting values and its place in the order of the 'Validation Error' toast.
 */
export interface FormExtra<Input extends FieldValues, Output> {
  after: keyof Input & string;
  name: keyof Input & string;
  empty: Input[keyof Input];
  render: (form: UseFormReturn<Input, unknown, Output>) => React.ReactNode;
}

/** A location field's text and its chosen place, two values of the form kept together. */
export function PlaceController<Input extends FieldValues, Output>({
  control,
  name,
  placeName,
  error,
  ...field
}: Omit<FormFieldSpec<string>, 'name' | 'placeId' | 'multiline' | 'wide'> & {
  control: Control<Input, unknown, Output>;
  name: Path<Input>;
  placeName: Path<Input>;
  error?: string;
}) {
  const { field: text } = useController({ control, name });
  const { field: place } = useController({ control, name: placeName });
  const { onChange: setPlace, value: placeId } = place;
  const { ref, name: textName, value, onChange: setText, onBlur } = text;
  return (
    <PlaceField
      {...field}
      error={error}
      name={textName}
      ref={ref}
      value={(value as string | undefined) ?? ''}
      placeId={typeof placeId === 'number' ? placeId : null}
      onBlur={onBlur}
      onValueChange={(typed, chosen) => {
        setText(typed);
        setPlace(chosen?.id ?? null);
      }}
    />
  );
}

/**
 * A page's create form in a card, validated by the shared schema. `fields` come in the schema's order: the first
 * is focused on open, the first failing rule is the 'Validation Error' toast, and every field starts empty. On
 * success the form is emptied and closed; on failure it keeps what the user typed.
 */
export function SchemaFormCard<Input extends FieldValues, Output>({
  id,
  title,
  schema,
  fields,
  mutation,
  submitLabel,
  busyLabel,
  onDone,
  extra,
}: {
  id: string;
  title: string;
  schema: z.ZodType<Output, Input>;
  fields: NoInfer<readonly [FormFieldSpec<keyof Input & string>, ...FormFieldSpec<keyof Input & string>[]]>;
  /** A TanStack mutation. */
  mutation: {
    mutate(values: Output, options: { onSuccess: () => void; onError: (err: unknown) => void }): void;
    isPending: boolean;
  };
  submitLabel: string;
  busyLabel: string;
  onDone: () => void;
  extra?: FormExtra<Input, Output>;
}) {
  // Every field starts empty; a location's chosen place starts as none.
  const [empty] = useState(
    () =>
      Object.fromEntries([
        ...fields.flatMap((f) => [[f.name, ''] as const, ...(f.placeId ? [[f.placeId, null] as const] : [])]),
        ...(extra ? [[extra.name, extra.empty] as const] : []),
      ]) as Input,
  );
  const form = useForm<Input, unknown, Output>({
    resolver: zodResolver(schema),
    defaultValues: empty as DefaultValues<Input>,
  });
  const { setFocus } = form;
  const first = fields[0].name as Path<Input>;
  const order = fields.flatMap((f) => (f.name === extra?.after ? [f.name, extra.name] : [f.name]));

  useEffect(() => setFocus(first), [setFocus, first]);

  const submit = form.handleSubmit(
    (values) =>
      mutation.mutate(values, {
        onSuccess: () => {
          form.reset(empty);
          onDone();
        },
        // Kept to send when the signal returns ('Waiting to send' lists it): the form is done with it.
        onError: (err) => {
          if (!isQueued(err)) return;
          form.reset(empty);
          onDone();
        },
      }),
    (errs) => toastFirstError(errs, order),
  );

  return (
    <FormCard
      id={id}
      title={title}
      onSubmit={submit}
      busy={mutation.isPending}
      submitLabel={submitLabel}
      busyLabel={busyLabel}
      onCancel={onDone}
    >
      {fields.map(({ name, multiline, placeId, ...field }) => {
        const message = form.formState.errors[name]?.message;
        const error = typeof message === 'string' ? message : undefined;
        const after = extra?.after === name ? <Fragment key={extra.name}>{extra.render(form)}</Fragment> : null;
        if (placeId) {
          return [
            <PlaceController
              key={name}
              {...field}
              control={form.control}
              name={name as Path<Input>}
              placeName={placeId as Path<Input>}
              error={error}
            />,
            after,
          ];
        }
        const control = { ...field, error, ...form.register(name as Path<Input>) };
        return [
          multiline ? (
            <TextareaField key={name} {...(control as React.ComponentProps<typeof TextareaField>)} />
          ) : (
            <InputField key={name} {...control} />
          ),
          after,
        ];
      })}
    </FormCard>
  );
}
