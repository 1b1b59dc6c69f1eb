import { useEffect, useRef } from 'react';
import type * as React from 'react';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from '@/lib/router';
import { z } from 'zod';
import {
  PASSWORDS_DO_NOT_MATCH,
  RESET_LINK_EXPIRED,
  resetPasswordSchema,
  type ResetPasswordInput,
} from '@shared/account';
import { LIMITS } from '@shared/limits';
import { preloadCommonPasswords } from '@shared/password-rules';
import { PAGE_PATHS } from '@shared/routes';
import { Field, fieldAria } from '@/components/form/field';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { ApiError } from '@/lib/api-client';
import { toastFirstError } from '@/lib/form-errors';
import { isResetLinkExpired, useResetLinkCheck, useResetPassword } from '../api/recovery';
import { NEW_PASSWORD_HINT, newPasswordResolver } from '../lib/new-password';
import { linkClass } from './link-class';

/** Without the common-password list (it failed to load): the spec's rules and the match; the server decides. */
const rulesOnly = z.object(resetPasswordSchema.shape).refine((v) => v.new_password === v.confirm_password, {
  message: PASSWORDS_DO_NOT_MATCH,
  path: ['confirm_password'],
});
const resolver = newPasswordResolver<ResetPasswordInput>(resetPasswordSchema, rulesOnly);

/** The order messages are reported in, which is the form's order. */
const ORDER = ['new_password', 'confirm_password', 'token'] as const;

const ASK_AGAIN = 'Ask for a new one';
const [BEFORE_LINK, AFTER_LINK] = RESET_LINK_EXPIRED.split(ASK_AGAIN);

/** RESET_LINK_EXPIRED, its second sentence a link to ask for a new one. */
function ExpiredLink({ focus = false }: { focus?: boolean }) {
  const ref = useRef<HTMLParagraphElement>(null);
  // Shown after 'Set new password' was pressed: the button is gone, so the message takes the focus.
  useEffect(() => {
    if (focus) ref.current?.focus();
  }, [focus]);
  return (
    <p ref={ref} tabIndex={-1} className="rounded-sm focus:outline-none">
      {BEFORE_LINK}
      <Link to={PAGE_PATHS.forgotPassword} className={linkClass}>
        {ASK_AGAIN}
      </Link>
      {AFTER_LINK}
    </p>
  );
}

function NewPasswordForm({ token }: { token: string }) {
  const reset = useResetPassword();
  const form = useForm<ResetPasswordInput>({
    resolver,
    defaultValues: { token, new_password: '', confirm_password: '' },
    // Focus follows the toast (form order) rather than react-hook-form's registration order.
    shouldFocusError: false,
  });
  const { errors, isSubmitting } = form.formState;
  const busy = isSubmitting || reset.isPending;

  if (isResetLinkExpired(reset.error)) return <ExpiredLink focus />;
  return (
    <form
      className="space-y-4"
      aria-label="Choose a new password"
      noValidate
      // About to need the common-password list: fetch it while the password is typed.
      onFocusCapture={preloadCommonPasswords}
      onSubmit={form.handleSubmit(
        (values) => reset.mutate(values),
        (errs) => {
          const field = toastFirstError(errs, ORDER);
          if (field && field !== 'token') form.setFocus(field);
        },
      )}
    >
      <Field id="reset-password" label="New password" error={errors.new_password?.message} hint={NEW_PASSWORD_HINT}>
        <Input
          {...fieldAria('reset-password', errors.new_password?.message, NEW_PASSWORD_HINT)}
          type="password"
          autoComplete="new-password"
          minLength={LIMITS.passwordMin}
          aria-required="true"
          autoFocus
          {...form.register('new_password')}
        />
      </Field>
      <Field id="reset-confirm" label="Confirm new password" error={errors.confirm_password?.message}>
        <Input
          {...fieldAria('reset-confirm', errors.confirm_password?.message)}
          type="password"
          autoComplete="new-password"
          aria-required="true"
          {...form.register('confirm_password')}
        />
      </Field>
      <Button type="submit" className="w-full" disabled={busy}>
        {busy ? 'Saving...' : 'Set new password'}
      </Button>
    </form>
  );
}

/**
 * '/auth/reset-password?token=...', the link of the 'Reset your RuralRoute password' e-mail. The link is checked as
 * the page opens, so an expired or used one says so before anything is typed.
 */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const check = useResetLinkCheck(token);

  let body: React.ReactNode;
  // A refusal of the token itself (malformed, say) is an unusable link like an expired one.
  const refused = check.error instanceof ApiError && check.error.status >= 400 && check.error.status < 500;
  if (!token || refused || check.data?.valid === false) {
    body = <ExpiredLink />;
  } else if (check.isError) {
    body = (
      <div role="alert" className="flex flex-col items-start gap-3">
        <p>
          We couldn&apos;t check your link.
          {check.error instanceof ApiError ? ` ${check.error.message}` : ''}
        </p>
        <Button variant="outline" onClick={() => void check.refetch()}>
          Try again
        </Button>
      </div>
    );
  } else if (check.data?.valid) {
    body = <NewPasswordForm token={token} />;
  } else {
    body = <p>Checking your link...</p>;
  }

  return (
    <div className="flex justify-center px-4 py-10">
      <Card className="w-full max-w-md space-y-4 p-6 md:p-8">
        <h1 className="text-2xl font-bold">Choose a new password</h1>
        <div aria-live="polite" className="space-y-4">
          {body}
        </div>
      </Card>
    </div>
  );
}
