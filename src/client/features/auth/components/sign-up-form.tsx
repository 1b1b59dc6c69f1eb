import { useForm } from 'react-hook-form';
import { LIMITS } from '@shared/limits';
import { signUpFieldsSchema, signUpSchema, type SignUpInput } from '@shared/auth';
import { preloadCommonPasswords } from '@shared/password-rules';
import { Field, fieldAria } from '@/components/form/field';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toastFirstError } from '@/lib/form-errors';
import { useSignUp } from '../api/sign-up';
import { NEW_PASSWORD_HINT, newPasswordResolver } from '../lib/new-password';

/** The spec's rule order (email, password, full name), which is not the form's visual order. */
const ORDER = ['email', 'password', 'full_name', 'age_confirmed'] as const;

const resolver = newPasswordResolver<SignUpInput>(signUpSchema, signUpFieldsSchema);

export function SignUpForm({ onCreated }: { onCreated: (email: string) => void }) {
  const signUp = useSignUp(onCreated);
  const form = useForm<SignUpInput>({
    resolver,
    defaultValues: { full_name: '', email: '', password: '', age_confirmed: false as unknown as true },
    // Focus follows the toast (spec order) rather than react-hook-form's registration order.
    shouldFocusError: false,
  });
  const { errors, isSubmitting } = form.formState;
  const busy = isSubmitting || signUp.isPending;
  const passwordHint = NEW_PASSWORD_HINT;

  return (
    <form
      className="space-y-4"
      aria-label="Sign up"
      // Prerendered: sent before the script has arrived, the form must not put the password in the address (a GET
      // would); the server answers a POST to the page by sending it again (src/server/http/static.ts).
      method="post"
      // The shared schema gives every message (spec section 5), so the browser's own bubbles must not run first.
      noValidate
      // Someone filling in the form is about to need the common-password list: fetch it while they type.
      onFocusCapture={preloadCommonPasswords}
      onSubmit={form.handleSubmit(
        (values) => signUp.mutate(values),
        (errs) => {
          const field = toastFirstError(errs, ORDER);
          if (field) form.setFocus(field);
        },
      )}
    >
      <Field id="signup-name" label="Full Name" error={errors.full_name?.message}>
        <Input
          {...fieldAria('signup-name', errors.full_name?.message)}
          autoComplete="name"
          aria-required="true"
          {...form.register('full_name')}
        />
      </Field>
      <Field id="signup-email" label="Email" error={errors.email?.message}>
        <Input
          {...fieldAria('signup-email', errors.email?.message)}
          type="email"
          autoComplete="email"
          aria-required="true"
          {...form.register('email')}
        />
      </Field>
      <Field id="signup-password" label="Password" error={errors.password?.message} hint={passwordHint}>
        <Input
          {...fieldAria('signup-password', errors.password?.message, passwordHint)}
          type="password"
          autoComplete="new-password"
          minLength={LIMITS.passwordMin}
          aria-required="true"
          {...form.register('password')}
        />
      </Field>
      <div className="space-y-2">
        <div className="flex items-center gap-3">
          {/*
            A native checkbox: it ticks from the first tap, before the page's script has loaded (the page is
            prerendered, decision 027), and react-hook-form reads what it holds when the form is sent.
          */}
          <input
            type="checkbox"
            id="signup-age"
            {...form.register('age_confirmed')}
            aria-required="true"
            aria-invalid={errors.age_confirmed ? true : undefined}
            aria-describedby={errors.age_confirmed ? 'signup-age-error' : undefined}
            className="size-5 shrink-0 cursor-pointer rounded-sm accent-primary focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2"
          />
          <Label htmlFor="signup-age">I confirm I am {LIMITS.minimumAge} or older</Label>
        </div>
        {errors.age_confirmed?.message ? (
          <p id="signup-age-error" role="alert" className="text-sm font-medium text-destructive">
            {errors.age_confirmed.message}
          </p>
        ) : null}
      </div>
      <Button type="submit" className="w-full" disabled={busy}>
        {busy ? 'Creating account...' : 'Create Account'}
      </Button>
    </form>
  );
}
