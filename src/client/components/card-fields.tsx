import type * as React from 'react';
import type { UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { cardSchema } from '@shared/payments';
import { Field, fieldAria } from '@/components/form/field';
import { Input } from '@/components/ui/input';
import { messageOf } from '@/lib/form-errors';

/** The test provider's card form ('Card number', 'Expiry', 'CVC', 'ZIP'): its schema, empty values and fields. */
export const cardFormSchema = cardSchema();
export type CardForm = z.input<typeof cardFormSchema>;
export type CardValues = z.output<typeof cardFormSchema>;
export const EMPTY_CARD: CardForm = { number: '', expiry: '', cvc: '', zip: '' };
export const CARD_FIELDS = ['number', 'expiry', 'cvc', 'zip'] as const;

/** The four card fields of a react-hook-form form over cardFormSchema; ids start with `idPrefix`. */
export function CardFields({
  form,
  idPrefix,
}: {
  form: UseFormReturn<CardForm, unknown, CardValues>;
  idPrefix: string;
}) {
  const field = (name: (typeof CARD_FIELDS)[number], label: string, props: React.ComponentProps<typeof Input>) => {
    const id = `${idPrefix}-${name}`;
    const error = messageOf(form.formState.errors, name);
    return (
      <Field id={id} label={label} error={error}>
        <Input {...fieldAria(id, error)} aria-required {...props} {...form.register(name)} />
      </Field>
    );
  };
  return (
    <>
      {field('number', 'Card number', { inputMode: 'numeric', autoComplete: 'cc-number' })}
      <div className="grid grid-cols-3 gap-3">
        {field('expiry', 'Expiry', { placeholder: 'MM/YY', autoComplete: 'cc-exp' })}
        {field('cvc', 'CVC', { inputMode: 'numeric', autoComplete: 'cc-csc' })}
        {field('zip', 'ZIP', { inputMode: 'numeric', autoComplete: 'postal-code' })}
      </div>
    </>
  );
}
