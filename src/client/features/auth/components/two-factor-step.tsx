import { useState } from 'react';
import { useForm } from 'react-hook-form';
import {
  CODE_LABEL,
  RECOVERY_CODE_LABEL,
  recoveryCodeSchema,
  totpCodeSchema,
  USE_RECOVERY_CODE_LABEL,
} from '@shared/two-factor';
import { Field, fieldAria } from '@/components/form/field';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { ApiError } from '@/lib/api-client';
import { toastApiError, toastError } from '@/lib/toast';
import { useCancelSignIn, useSignInCode } from '../api/two-factor';
import { linkClass } from './link-class';

type Mode = 'code' | 'recovery';
interface Values {
  code: string;
  recovery_code: string;
}

const SIGN_IN_EXPIRED = 'Your sign-in took too long. Please sign in again.';

/** The first message of a zod schema for a react-hook-form rule. */
const rule = (schema: typeof totpCodeSchema | typeof recoveryCodeSchema) => (value: string) => {
  const result = schema.safeParse(value);
  return result.success || (result.error.issues[0]?.message ?? 'Please check your input');
};

/**
 * After a correct password, with two-factor on: the 'Authentication code' from the app (or 'Use a recovery code').
 * Only then is the sign-in complete and the dashboard opens. 'Cancel' signs the half-done session out.
 */
export function TwoFactorStep() {
  const [mode, setMode] = useState<Mode>('code');
  const send = useSignInCode();
  const cancel = useCancelSignIn();
  // Only the shown field is registered, checked and sent.
  const form = useForm<Values>({ defaultValues: { code: '', recovery_code: '' }, shouldUnregister: true });
  const { errors } = form.formState;
  const busy = send.isPending || cancel.isPending;
  const field = mode === 'code' ? 'code' : 'recovery_code';
  const error = errors[field]?.message;

  const submit = form.handleSubmit((values) =>
    // Sent as the schemas read them: '123 456' -> '123456', 'ABCDE EFGHI' -> 'abcde-efghi'.
    send.mutate(
      mode === 'code'
        ? { code: totpCodeSchema.parse(values.code) }
        : { recovery_code: recoveryCodeSchema.parse(values.recovery_code) },
      {
        onError: (err) => {
          if (err instanceof ApiError && (err.code === 'wrong_code' || err.code === 'validation_error')) {
            form.setError(field, { message: err.message }, { shouldFocus: true });
          } else if (err instanceof ApiError && err.status === 401) {
            toastError('Error', SIGN_IN_EXPIRED);
          } else {
            toastApiError(err);
          }
        },
      },
    ),
  );

  const switchTo = (next: Mode) => {
    form.clearErrors();
    setMode(next);
  };

  return (
    <div className="space-y-4">
      <h2 className="text-xl font-semibold">{mode === 'code' ? CODE_LABEL : RECOVERY_CODE_LABEL}</h2>
      <p className="text-muted-foreground">
        {mode === 'code'
          ? 'Open the authenticator app on your phone and type the 6-digit code it shows for RuralRoute.'
          : 'Type one of the recovery codes you saved when you set up two-factor authentication. Each code works once.'}
      </p>
      <form noValidate className="space-y-4" onSubmit={submit}>
        {mode === 'code' ? (
          <Field key="code" id="signin-code" label={CODE_LABEL} error={error}>
            <Input
              {...fieldAria('signin-code', error)}
              type="text"
              inputMode="numeric"
              autoComplete="one-time-code"
              aria-required="true"
              autoFocus
              className="font-mono tracking-wider"
              {...form.register('code', { validate: rule(totpCodeSchema) })}
            />
          </Field>
        ) : (
          <Field key="recovery" id="signin-recovery-code" label={RECOVERY_CODE_LABEL} error={error}>
            <Input
              {...fieldAria('signin-recovery-code', error)}
              type="text"
              autoComplete="off"
              autoCapitalize="off"
              spellCheck={false}
              aria-required="true"
              autoFocus
              className="font-mono tracking-wider"
              {...form.register('recovery_code', { validate: rule(recoveryCodeSchema) })}
            />
          </Field>
        )}
        <p className="text-sm">
          <button type="button" className={linkClass} onClick={() => switchTo(mode === 'code' ? 'recovery' : 'code')}>
            {mode === 'code' ? USE_RECOVERY_CODE_LABEL : 'Use a code from the app'}
          </button>
        </p>
        <div className="flex flex-col gap-2">
          <Button type="submit" className="w-full" disabled={busy}>
            {send.isPending ? 'Checking...' : 'Continue'}
          </Button>
          <Button type="button" variant="outline" className="w-full" disabled={busy} onClick={() => cancel.mutate()}>
            {cancel.isPending ? 'Cancelling...' : 'Cancel'}
          </Button>
        </div>
      </form>
    </div>
  );
}
