import { LIMITS } from '@shared/limits';
import { COMMON_PASSWORD_MESSAGE } from '@shared/password-messages';
import { Field, fieldAria } from '@/components/form/field';
import { useSchemaForm } from '@/components/form/use-schema-form';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { ApiError } from '@/lib/api-error';
import { toastSubmitError, toastSuccess } from '@/lib/toast';
import { NEW_PASSWORD_HINT } from '../lib/new-password-hint';

/** The schemas, the API and the cache: fetched when a field is first focused (lib/auth-engine.ts). */
const engine = () => import('../lib/auth-engine');

/**
 * 'Sign Up'. The browser checks the spec's rules; whether a password is too common is the server's answer (its
 * list is 213 KB compressed, too much to send every phone that opens the form), shown under the field like the rest.
 */
export function SignUpForm({ onCreated }: { onCreated: (email: string) => void }) {
  const form = useSchemaForm({
    load: () => engine().then((m) => m.signUpFieldsSchema),
    // The spec's rule order (email, password, full name), which is not the form's visual order.
    order: ['email', 'password', 'full_name', 'age_confirmed'],
    onValid: async (values) => {
      const { sendSignUp } = await engine();
      await sendSignUp(values).then(
        (email) => {
          toastSuccess('Success!', 'Account created successfully. You can now sign in.');
          onCreated(email);
        },
        (err: unknown) => {
          if (err instanceof ApiError && err.message === COMMON_PASSWORD_MESSAGE) {
            form.setError('password', err.message);
            document.getElementById('signup-password')?.focus();
          }
          toastSubmitError(err);
        },
      );
    },
  });
  const { errors } = form;
  const passwordHint = NEW_PASSWORD_HINT;

  return (
    <form
      className="space-y-4"
      aria-label="Sign up"
      // Prerendered: sent before the script has arrived, the form must not put the password in the address (a GET
      // would); the server answers a POST to the page by sending it again (src/server/http/static.ts). The shared
      // schema gives every message (spec section 5), so the browser's own bubbles must not run first (noValidate).
      {...form.formProps}
    >
      <Field id="signup-name" label="Full Name" error={errors.full_name}>
        <Input
          {...fieldAria('signup-name', errors.full_name)}
          name="full_name"
          autoComplete="name"
          aria-required="true"
        />
      </Field>
      <Field id="signup-email" label="Email" error={errors.email}>
        <Input
          {...fieldAria('signup-email', errors.email)}
          name="email"
          type="email"
          autoComplete="email"
          aria-required="true"
        />
      </Field>
      <Field id="signup-password" label="Password" error={errors.password} hint={passwordHint}>
        <Input
          {...fieldAria('signup-password', errors.password, passwordHint)}
          name="password"
          type="password"
          autoComplete="new-password"
          minLength={LIMITS.passwordMin}
          aria-required="true"
        />
      </Field>
      <div className="space-y-2">
        <div className="flex items-center gap-3">
          {/* A native checkbox: it ticks from the first tap, before the page's script has loaded (decision 027). */}
          <input
            type="checkbox"
            id="signup-age"
            name="age_confirmed"
            aria-required="true"
            aria-invalid={errors.age_confirmed ? true : undefined}
            aria-describedby={errors.age_confirmed ? 'signup-age-error' : undefined}
            className="size-5 shrink-0 cursor-pointer rounded-sm accent-primary focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2"
          />
          <Label htmlFor="signup-age">I confirm I am {LIMITS.minimumAge} or older</Label>
        </div>
        {errors.age_confirmed ? (
          <p id="signup-age-error" role="alert" className="text-sm font-medium text-destructive">
            {errors.age_confirmed}
          </p>
        ) : null}
      </div>
      <Button type="submit" className="w-full" disabled={form.busy}>
        {form.busy ? 'Creating account...' : 'Create Account'}
      </Button>
    </form>
  );
}
