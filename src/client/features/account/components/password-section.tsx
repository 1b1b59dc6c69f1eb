import { useState } from 'react';
import { useForm, type FieldPath } from 'react-hook-form';
import { z } from 'zod';
import {
  changePasswordSchema,
  PASSWORDS_DO_NOT_MATCH,
  WRONG_CURRENT_PASSWORD,
  type ChangePasswordInput,
} from '@shared/account';
import { LIMITS } from '@shared/limits';
import { CODE_REQUIRED } from '@shared/two-factor';
import { preloadCommonPasswords } from '@shared/password-rules';
import { Field, fieldAria } from '@/components/form/field';
import { SettingsSection } from '@/components/settings-section';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { NEW_PASSWORD_HINT, newPasswordResolver } from '@/features/auth';
import { ApiError } from '@/lib/api-client';
import { toastFirstError } from '@/lib/form-errors';
import { toastSubmitError } from '@/lib/toast';
import { useChangePassword } from '../api/account';
import { CodeField } from './two-factor-code-field';

const ORDER = ['current_password', 'new_password', 'confirm_password'] as const;
const EMPTY: ChangePasswordInput = { current_password: '', new_password: '', confirm_password: '' };

/** The same rules without the common-password list (zod 4 keeps the object's shape through its refinements). */
const specRulesOnly = z.object(changePasswordSchema.shape).refine((v) => v.new_password === v.confirm_password, {
  message: PASSWORDS_DO_NOT_MATCH,
  path: ['confirm_password'],
});
const resolver = newPasswordResolver<ChangePasswordInput>(changePasswordSchema, specRulesOnly);

function PasswordField({
  id,
  name,
  label,
  autoComplete,
  error,
  hint,
  minLength,
  register,
}: {
  id: string;
  name: FieldPath<ChangePasswordInput>;
  label: string;
  autoComplete: 'current-password' | 'new-password';
  error?: string;
  hint?: string;
  minLength?: number;
  register: ReturnType<typeof useForm<ChangePasswordInput>>['register'];
}) {
  return (
    <Field id={id} label={label} error={error} hint={hint}>
      <Input
        {...fieldAria(id, error, hint)}
        type="password"
        autoComplete={autoComplete}
        aria-required="true"
        minLength={minLength}
        {...register(name)}
      />
    </Field>
  );
}

/**
 * Settings, 'Password': the current one, a new one (the spec's rules and the common-password check) twice. On
 * success every other browser is signed out and a security e-mail is sent (by the server); the fields are cleared.
 * With two-factor on and no recent check the server also asks for a code (`code_required`): the 'Authentication
 * code' field appears and the form is sent again with it.
 */
export function PasswordSection() {
  const change = useChangePassword();
  const [codeAsked, setCodeAsked] = useState(false);
  const form = useForm<ChangePasswordInput>({ resolver, defaultValues: EMPTY, shouldFocusError: false });
  const { errors, isSubmitting } = form.formState;
  const busy = isSubmitting || change.isPending;

  const submit = form.handleSubmit(
    ({ code, ...values }) => {
      if (codeAsked && !code?.trim()) {
        form.setError('code', { message: CODE_REQUIRED }, { shouldFocus: true });
        return;
      }
      change.mutate(codeAsked ? { ...values, code } : values, {
        onSuccess: () => {
          form.reset(EMPTY);
          setCodeAsked(false);
        },
        onError: (err) => {
          if (err instanceof ApiError && err.code === 'wrong_password') {
            form.setError('current_password', { message: WRONG_CURRENT_PASSWORD }, { shouldFocus: true });
          } else if (err instanceof ApiError && err.code === 'code_required') {
            // The field appears with the message and takes focus as it mounts.
            setCodeAsked(true);
            form.setError('code', { message: CODE_REQUIRED });
          } else if (err instanceof ApiError && err.code === 'wrong_code') {
            form.setError('code', { message: err.message }, { shouldFocus: true });
          } else {
            toastSubmitError(err);
          }
        },
      });
    },
    (errs) => {
      const field = toastFirstError(errs, ORDER);
      if (field) form.setFocus(field);
    },
  );

  return (
    <SettingsSection
      title="Password"
      description="Changing your password signs you out on every other device, and we send you an e-mail about it."
    >
      <form
        aria-label="Change password"
        noValidate
        className="space-y-4"
        // Someone changing their password is about to need the common-password list: fetch it while they type.
        onFocusCapture={preloadCommonPasswords}
        onSubmit={submit}
      >
        <PasswordField
          id="password-current"
          name="current_password"
          label="Current password"
          autoComplete="current-password"
          error={errors.current_password?.message}
          register={form.register}
        />
        <PasswordField
          id="password-new"
          name="new_password"
          label="New password"
          autoComplete="new-password"
          error={errors.new_password?.message}
          hint={NEW_PASSWORD_HINT}
          minLength={LIMITS.passwordMin}
          register={form.register}
        />
        <PasswordField
          id="password-confirm"
          name="confirm_password"
          label="Confirm new password"
          autoComplete="new-password"
          error={errors.confirm_password?.message}
          register={form.register}
        />
        {codeAsked ? (
          <CodeField id="password-code" error={errors.code?.message} autoFocus {...form.register('code')} />
        ) : null}
        <Button type="submit" disabled={busy}>
          {busy ? 'Changing password...' : 'Change password'}
        </Button>
      </form>
    </SettingsSection>
  );
}
