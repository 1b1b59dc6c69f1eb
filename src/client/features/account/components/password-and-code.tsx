import type { UseFormReturn } from 'react-hook-form';
import { anyCodeSchema, CODE_REQUIRED, confirmIdentitySchema } from '@shared/two-factor';
import { Field, fieldAria } from '@/components/form/field';
import { Input } from '@/components/ui/input';
import { ApiError } from '@/lib/api-client';
import { toastSubmitError } from '@/lib/toast';
import { CodeField, zodRule } from './two-factor-code-field';

/** The part of a form that proves it is you: the current password, and a code when two-factor is on. */
export interface PasswordAndCode {
  password: string;
  code: string;
}

/**
 * 'Password' and, when `needCode`, 'Authentication code' (the app's or a recovery code), for 'Confirm it's you'
 * and 'Delete account'. The form must unregister hidden fields (shouldUnregister), so the code's rule applies only
 * while it is shown; `codeAsked` focuses it as it appears after the server asked for it.
 */
export function PasswordAndCodeFields({
  form,
  idPrefix,
  needCode,
  codeAsked,
  autoFocus = false,
}: {
  form: UseFormReturn<PasswordAndCode>;
  idPrefix: string;
  needCode: boolean;
  codeAsked: boolean;
  autoFocus?: boolean;
}) {
  const { errors } = form.formState;
  return (
    <>
      <Field id={`${idPrefix}-password`} label="Password" error={errors.password?.message}>
        <Input
          {...fieldAria(`${idPrefix}-password`, errors.password?.message)}
          type="password"
          autoComplete="current-password"
          aria-required="true"
          autoFocus={autoFocus}
          {...form.register('password', { validate: zodRule(confirmIdentitySchema.shape.password) })}
        />
      </Field>
      {needCode ? (
        <CodeField
          id={`${idPrefix}-code`}
          error={errors.code?.message}
          autoFocus={codeAsked}
          {...form.register('code', { validate: zodRule(anyCodeSchema) })}
        />
      ) : null}
    </>
  );
}

/**
 * The server's answer to a password (+ code) check, shown where it belongs: a wrong password or code under its
 * field (focused), 'code required' by asking for the code (`askCode`: the field appears with the message), anything
 * else as the usual error toast.
 */
export function showIdentityError(err: unknown, form: UseFormReturn<PasswordAndCode>, askCode: () => void): void {
  if (err instanceof ApiError && err.code === 'wrong_password') {
    form.setError('password', { message: err.message }, { shouldFocus: true });
  } else if (err instanceof ApiError && err.code === 'code_required') {
    askCode();
    form.setError('code', { message: CODE_REQUIRED });
  } else if (err instanceof ApiError && err.code === 'wrong_code') {
    form.setError('code', { message: err.message }, { shouldFocus: true });
  } else {
    toastSubmitError(err);
  }
}
