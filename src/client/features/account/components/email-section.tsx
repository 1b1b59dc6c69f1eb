import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import {
  changeEmailSchema,
  SAME_EMAIL_MESSAGE,
  waitingForConfirmation,
  WRONG_CURRENT_PASSWORD,
  type AccountProfile,
  type ChangeEmailInput,
} from '@shared/account';
import { anyCodeSchema, CODE_LABEL, CODE_REQUIRED, WRONG_CODE } from '@shared/two-factor';
import { Field, fieldAria } from '@/components/form/field';
import { SettingsSection } from '@/components/settings-section';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { ApiError } from '@/lib/api-client';
import { toastFirstError } from '@/lib/form-errors';
import { toastSubmitError } from '@/lib/toast';
import { useAccountProfile } from '../api/account';
import { useCancelEmailChange, useChangeEmail } from '../api/email';
import { SectionQuery } from './section-query';

const ORDER = ['new_email', 'current_password', 'code'] as const;
const EMPTY: ChangeEmailInput = { new_email: '', current_password: '' };
const CODE_HINT = 'The 6-digit code from your authenticator app, or one of your recovery codes.';

const passwordOnly = zodResolver(changeEmailSchema);
/** Once the server asked for a code (two-factor on, no check in the last 10 minutes), the field is required. */
const withCode = zodResolver(
  changeEmailSchema
    .extend({ code: anyCodeSchema.optional() })
    .refine((v) => v.code !== undefined, { message: CODE_REQUIRED, path: ['code'] }),
);

/** 'Waiting for confirmation of …' and 'Cancel change'; takes the focus when it appears after a request. */
function PendingChange({ address, focus, onCancelled }: { address: string; focus: boolean; onCancelled: () => void }) {
  const cancel = useCancelEmailChange();
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (focus) ref.current?.focus();
  }, [focus, address]);
  return (
    <div className="flex flex-col items-start gap-3 rounded-md border border-dashed p-4">
      <p ref={ref} tabIndex={-1} className="rounded-sm font-medium focus:outline-none">
        {waitingForConfirmation(address)}
      </p>
      <p className="text-sm text-muted-foreground">
        Open the link we sent to that address to finish the change. Until then, keep using your current address.
      </p>
      <Button
        type="button"
        variant="outline"
        disabled={cancel.isPending}
        onClick={() => cancel.mutate(undefined, { onSuccess: onCancelled })}
      >
        {cancel.isPending ? 'Cancelling...' : 'Cancel change'}
      </Button>
    </div>
  );
}

function EmailForm({ profile }: { profile: AccountProfile }) {
  const change = useChangeEmail();
  const [needCode, setNeedCode] = useState(false);
  const [justAsked, setJustAsked] = useState(false);
  const form = useForm<ChangeEmailInput>({
    resolver: needCode ? withCode : passwordOnly,
    defaultValues: EMPTY,
    shouldFocusError: false,
  });
  const { errors, isSubmitting } = form.formState;
  const busy = isSubmitting || change.isPending;
  const pending = profile.pending_email ?? null;

  // The code field appears when the server asks for it: the focus goes there, with the reason as its message.
  useEffect(() => {
    if (needCode) form.setFocus('code');
  }, [needCode, form]);

  const submit = form.handleSubmit(
    (values) =>
      change.mutate(values, {
        onSuccess: () => {
          setNeedCode(false);
          setJustAsked(true);
          form.reset(EMPTY);
        },
        onError: (err) => {
          if (!(err instanceof ApiError)) return toastSubmitError(err);
          if (err.code === 'wrong_password')
            return form.setError('current_password', { message: WRONG_CURRENT_PASSWORD }, { shouldFocus: true });
          if (err.code === 'code_required') {
            form.setError('code', { message: CODE_REQUIRED });
            if (needCode) form.setFocus('code');
            return setNeedCode(true);
          }
          if (err.code === 'wrong_code') return form.setError('code', { message: WRONG_CODE }, { shouldFocus: true });
          if (err.message === SAME_EMAIL_MESSAGE)
            return form.setError('new_email', { message: SAME_EMAIL_MESSAGE }, { shouldFocus: true });
          toastSubmitError(err);
        },
      }),
    (errs) => {
      const field = toastFirstError(errs, ORDER);
      if (field) form.setFocus(field);
    },
  );

  return (
    <div className="space-y-4">
      <p>
        Your email: <span className="font-medium break-all">{profile.email}</span>
      </p>
      {pending ? (
        <PendingChange
          address={pending}
          focus={justAsked}
          onCancelled={() => {
            setJustAsked(false);
            form.setFocus('new_email');
          }}
        />
      ) : null}
      <form aria-label="Change email" noValidate className="space-y-4" onSubmit={submit}>
        <Field id="email-new" label="New email" error={errors.new_email?.message}>
          <Input
            {...fieldAria('email-new', errors.new_email?.message)}
            type="email"
            autoComplete="email"
            aria-required="true"
            {...form.register('new_email')}
          />
        </Field>
        <Field id="email-password" label="Current password" error={errors.current_password?.message}>
          <Input
            {...fieldAria('email-password', errors.current_password?.message)}
            type="password"
            autoComplete="current-password"
            aria-required="true"
            {...form.register('current_password')}
          />
        </Field>
        {needCode ? (
          <Field id="email-code" label={CODE_LABEL} error={errors.code?.message} hint={CODE_HINT}>
            <Input
              {...fieldAria('email-code', errors.code?.message, CODE_HINT)}
              autoComplete="one-time-code"
              aria-required="true"
              {...form.register('code')}
            />
          </Field>
        ) : null}
        <Button type="submit" disabled={busy}>
          {busy ? 'Sending link...' : 'Change email'}
        </Button>
      </form>
    </div>
  );
}

/**
 * Settings, 'Email': the current address and a form for a new one. The change happens when the link sent to the
 * new address is opened; until then the card shows the address waiting for confirmation, with 'Cancel change'.
 */
export function EmailSection() {
  return (
    <SettingsSection
      title="Email"
      description="We send a link to the new address. Your email changes when you open it, and we tell your current address."
    >
      <SectionQuery query={useAccountProfile()} what="your email">
        {(profile) => <EmailForm profile={profile} />}
      </SectionQuery>
    </SettingsSection>
  );
}
