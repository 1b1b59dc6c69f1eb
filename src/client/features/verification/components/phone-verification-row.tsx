import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm, type UseFormReturn } from 'react-hook-form';
import {
  PHONE_CODE_LENGTH,
  PHONE_LABEL,
  phoneCodeSchema,
  phoneInputSchema,
  VERIFICATION_LABELS,
  type PhoneCodeInput,
  type PhoneInput,
  type PhoneState,
} from '@shared/verification';
import { Field, fieldAria } from '@/components/form/field';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { ApiError } from '@/lib/api-client';
import { toastMutationError } from '@/lib/mutation-errors';
import { useConfirmPhone, usePhoneState, useRemovePhone, useSendPhoneCode } from '../api/phone';
import { VerificationRow } from './verification-row';

/** Refusals that belong to one field: shown under it (announced) with the server's words, the focus put there. */
const PHONE_FIELD_CODES = ['validation_error', 'phone_taken', 'phone_already_yours', 'too_many_requests'];
const CODE_FIELD_CODES = ['validation_error', 'wrong_code', 'phone_code_expired', 'too_many_requests'];

function showRefusal<T extends PhoneInput | PhoneCodeInput>(
  form: UseFormReturn<T>,
  field: keyof T & string,
  codes: string[],
  err: unknown,
) {
  if (err instanceof ApiError && codes.includes(err.code))
    // The field name is the form's own; react-hook-form's path type cannot see that through the generic.
    return form.setError(field as never, { message: err.message }, { shouldFocus: true });
  toastMutationError(err);
}

/** 'Phone number' + 'Send code' (and 'Cancel' when it replaces a verified number or a code waiting). */
function NumberForm({ onSent, onCancel }: { onSent: () => void; onCancel?: () => void }) {
  const send = useSendPhoneCode();
  const form = useForm<PhoneInput>({
    resolver: zodResolver(phoneInputSchema),
    defaultValues: { phone: '' },
    shouldFocusError: true,
  });
  const error = form.formState.errors.phone?.message;
  const busy = form.formState.isSubmitting || send.isPending;
  useEffect(() => {
    if (onCancel) form.setFocus('phone');
  }, [form, onCancel]);
  const submit = form.handleSubmit((values) =>
    send.mutateAsync(values).then(onSent, (err: unknown) => showRefusal(form, 'phone', PHONE_FIELD_CODES, err)),
  );
  return (
    <form aria-label="Verify by text message" noValidate className="space-y-3" onSubmit={submit}>
      <Field
        id="phone-number"
        label={PHONE_LABEL}
        error={error}
        hint="A US mobile number. We text it a code; others never see your number."
      >
        <Input
          {...fieldAria('phone-number', error, 'A US mobile number. We text it a code; others never see your number.')}
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          aria-required="true"
          className="max-w-xs"
          {...form.register('phone')}
        />
      </Field>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" size="sm" disabled={busy}>
          {busy ? 'Sending...' : 'Send code'}
        </Button>
        {onCancel ? (
          <Button type="button" size="sm" variant="outline" onClick={onCancel}>
            Cancel
          </Button>
        ) : null}
      </div>
    </form>
  );
}

/** 'Enter the 6-digit code we sent to …' + 'Verify', 'Send a new code', 'Change number'. */
function CodeForm({
  pending,
  onChangeNumber,
}: {
  pending: NonNullable<PhoneState['pending']>;
  onChangeNumber: () => void;
}) {
  const confirm = useConfirmPhone();
  const resend = useSendPhoneCode();
  const form = useForm<PhoneCodeInput>({
    resolver: zodResolver(phoneCodeSchema),
    defaultValues: { code: '' },
    shouldFocusError: true,
  });
  const error = form.formState.errors.code?.message;
  // The field takes the focus when the form appears (right after 'Send code') and after each new code.
  useEffect(() => {
    form.setFocus('code');
  }, [form, pending.expires_at]);
  const submit = form.handleSubmit((values) =>
    confirm.mutateAsync(values).catch((err: unknown) => showRefusal(form, 'code', CODE_FIELD_CODES, err)),
  );
  const sendAgain = () =>
    resend.mutateAsync({ phone: pending.phone }).then(
      () => form.reset({ code: '' }),
      (err: unknown) => showRefusal(form, 'code', CODE_FIELD_CODES, err),
    );
  const busy = form.formState.isSubmitting || confirm.isPending;
  return (
    <form aria-label="Check the text message" noValidate className="space-y-3" onSubmit={submit}>
      <p id="phone-code-instructions">
        Enter the {PHONE_CODE_LENGTH}-digit code we sent to {/* The number stays on one line on a narrow phone. */}
        <span className="font-medium whitespace-nowrap">{pending.phone}</span>.
      </p>
      <Field id="phone-code" label="Code" error={error}>
        <Input
          {...fieldAria('phone-code', error)}
          aria-describedby={error ? 'phone-code-error' : 'phone-code-instructions'}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={PHONE_CODE_LENGTH}
          aria-required="true"
          className="max-w-[10rem] tracking-widest"
          {...form.register('code')}
        />
      </Field>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" size="sm" disabled={busy}>
          {busy ? 'Checking...' : 'Verify'}
        </Button>
        <Button type="button" size="sm" variant="outline" disabled={resend.isPending} onClick={() => void sendAgain()}>
          {resend.isPending ? 'Sending...' : 'Send a new code'}
        </Button>
        <Button type="button" size="sm" variant="ghost" onClick={onChangeNumber}>
          Change number
        </Button>
      </div>
    </form>
  );
}

function PhoneActions({ state }: { state: PhoneState }) {
  const remove = useRemovePhone();
  // 'Change number' while a code waits or a number is verified: the number form, until a code is sent or cancelled.
  const [changing, setChanging] = useState(false);
  const pending = state.pending;
  if (pending && !changing) return <CodeForm pending={pending} onChangeNumber={() => setChanging(true)} />;
  if (state.phone && !changing)
    return (
      <div className="flex flex-wrap items-center gap-2">
        <Button type="button" size="sm" variant="outline" onClick={() => setChanging(true)}>
          Change number
        </Button>
        <Button
          type="button"
          size="sm"
          variant="outline"
          disabled={remove.isPending}
          onClick={() => remove.mutate(undefined, { onError: toastMutationError })}
        >
          {remove.isPending ? 'Removing...' : 'Remove number'}
        </Button>
      </div>
    );
  return <NumberForm onSent={() => setChanging(false)} onCancel={changing ? () => setChanging(false) : undefined} />;
}

/**
 * 'Phone number': a US number verified by a code sent by SMS (10 minutes, 5 tries). Shows 'Phone verified' with
 * the number, or 'Not verified'; then the number form, or the code form while a code waits.
 */
export function PhoneVerificationRow() {
  const query = usePhoneState();
  const state = query.data;
  if (!state)
    return (
      <VerificationRow title="Phone number" done={false} state={query.isError ? 'Could not load' : 'Loading...'}>
        {query.isError ? <p role="alert">We couldn&apos;t load your phone number.</p> : null}
      </VerificationRow>
    );
  return (
    <VerificationRow
      title="Phone number"
      done={state.phone !== null}
      state={state.phone ? VERIFICATION_LABELS.phone : 'Not verified'}
    >
      {state.phone ? (
        <p className="text-sm">
          Your number: <span className="font-medium">{state.phone}</span>
        </p>
      ) : null}
      <PhoneActions state={state} />
    </VerificationRow>
  );
}
