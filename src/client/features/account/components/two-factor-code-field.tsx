import type * as React from 'react';
import type { z } from 'zod';
import { CODE_LABEL } from '@shared/two-factor';
import { Field, fieldAria } from '@/components/form/field';
import { Input } from '@/components/ui/input';

/** Under a field that also takes a recovery code (turning two-factor off, the re-check, deleting the account). */
export const ANY_CODE_HINT = 'The 6-digit code from your authenticator app, or one of your recovery codes.';

/**
 * 'Authentication code': the app's 6 digits (`digits`: the number keyboard on phones), or either kind of code.
 * The browser and password managers may fill it in (autocomplete one-time-code).
 */
export function CodeField({
  id,
  error,
  digits = false,
  hint = digits ? undefined : ANY_CODE_HINT,
  ...input
}: {
  id: string;
  error?: string;
  digits?: boolean;
  hint?: string;
} & Omit<React.ComponentProps<typeof Input>, 'id'>) {
  return (
    <Field id={id} label={CODE_LABEL} error={error} hint={hint}>
      <Input
        {...fieldAria(id, error, hint)}
        type="text"
        inputMode={digits ? 'numeric' : 'text'}
        autoComplete="one-time-code"
        autoCapitalize="off"
        spellCheck={false}
        aria-required="true"
        className="max-w-xs font-mono tracking-wider"
        {...input}
      />
    </Field>
  );
}

/** A react-hook-form rule from a zod schema: true, or the first message. */
export function zodRule(schema: z.ZodType) {
  return (value: unknown) => {
    const result = schema.safeParse(value);
    return result.success || (result.error.issues[0]?.message ?? 'Please check your input');
  };
}
