import type * as React from 'react';
import { Field, fieldAria } from '@/components/form/field';
import { Input, Textarea } from '@/components/ui/input';

interface FieldProps {
  id: string;
  label: string;
  error?: string;
  hint?: string;
  /** Spans both columns of a FormCard. */
  wide?: boolean;
}

function Span({ wide, children }: { wide?: boolean; children: React.ReactElement }) {
  return wide ? <div className="md:col-span-2">{children}</div> : children;
}

/** A labelled input with its error (or hint) wired to it; the rest of the props (e.g. `register`) go to the input. */
export function InputField({ id, label, error, hint, wide, ...input }: FieldProps & React.ComponentProps<'input'>) {
  return (
    <Span wide={wide}>
      <Field id={id} label={label} error={error} hint={hint}>
        <Input {...fieldAria(id, error, hint)} {...input} />
      </Field>
    </Span>
  );
}

export function TextareaField({
  id,
  label,
  error,
  hint,
  wide,
  ...textarea
}: FieldProps & React.ComponentProps<'textarea'>) {
  return (
    <Span wide={wide}>
      <Field id={id} label={label} error={error} hint={hint}>
        <Textarea {...fieldAria(id, error, hint)} {...textarea} />
      </Field>
    </Span>
  );
}
