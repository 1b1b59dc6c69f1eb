import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import { useForm, type DefaultValues, type FieldValues, type Path } from 'react-hook-form';
import type { z } from 'zod';
import { toastFirstError } from '@/lib/form-errors';

/**
 * A FormCard's form: validated by the shared schema, its first field focused on open, the first failing rule
 * toasted in `order` (the schema's field order), and on success emptied and closed.
 */
export function useCardForm<Input extends FieldValues, Output>({
  schema,
  empty,
  order,
  mutation,
  onDone,
}: {
  schema: z.ZodType<Output, NoInfer<Input>>;
  empty: Input;
  order: readonly [keyof Input & string, ...(keyof Input & string)[]];
  /** A TanStack mutation; only its `mutate` is used. */
  mutation: { mutate(values: Output, options: { onSuccess: () => void }): void };
  onDone: () => void;
}) {
  const form = useForm<Input, unknown, Output>({
    resolver: zodResolver(schema),
    defaultValues: empty as DefaultValues<Input>,
  });
  const { setFocus } = form;
  const first = order[0] as Path<Input>;

  useEffect(() => setFocus(first), [setFocus, first]);

  const submit = form.handleSubmit(
    (values) =>
      mutation.mutate(values, {
        onSuccess: () => {
          form.reset(empty);
          onDone();
        },
      }),
    (errs) => toastFirstError(errs, order),
  );

  return { form, submit, errors: form.formState.errors };
}
