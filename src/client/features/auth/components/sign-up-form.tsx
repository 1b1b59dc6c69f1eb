import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import { LIMITS } from '../../../../shared/limits';
import { signUpSchema, type SignUpInput } from '../../../../shared/auth';
import { Field, fieldAria } from '@/components/form/field';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toastFirstError } from '@/lib/form-errors';
import { useSignUp } from '../api/sign-up';

const ORDER = ['email', 'password', 'full_name', 'age_confirmed'] as const;

export function SignUpForm({ onCreated }: { onCreated: (email: string) => void }) {
  const signUp = useSignUp(onCreated);
  const form = useForm<SignUpInput>({
    resolver: zodResolver(signUpSchema),
    defaultValues: { full_name: '', email: '', password: '', age_confirmed: false as unknown as true },
  });
  const { errors } = form.formState;
  const passwordHint = `At least ${LIMITS.passwordMin} characters, with an uppercase letter, a lowercase letter, a number and a special character.`;

  return (
    <form
      className="space-y-4"
      aria-label="Sign up"
      onSubmit={form.handleSubmit(
        (values) => signUp.mutate(values),
        (errs) => toastFirstError(errs, ORDER),
      )}
    >
      <Field id="signup-name" label="Full Name" error={errors.full_name?.message}>
        <Input
          {...fieldAria('signup-name', errors.full_name?.message)}
          autoComplete="name"
          required
          {...form.register('full_name')}
        />
      </Field>
      <Field id="signup-email" label="Email" error={errors.email?.message}>
        <Input
          {...fieldAria('signup-email', errors.email?.message)}
          type="email"
          autoComplete="email"
          required
          {...form.register('email')}
        />
      </Field>
      <Field id="signup-password" label="Password" error={errors.password?.message} hint={passwordHint}>
        <Input
          {...fieldAria('signup-password', errors.password?.message, passwordHint)}
          type="password"
          autoComplete="new-password"
          minLength={LIMITS.passwordMin}
          required
          {...form.register('password')}
        />
      </Field>
      <div className="space-y-2">
        <div className="flex items-center gap-3">
          <Controller
            control={form.control}
            name="age_confirmed"
            render={({ field }) => (
              <Checkbox
                id="signup-age"
                checked={field.value === true}
                onCheckedChange={(v) => field.onChange(v === true)}
                onBlur={field.onBlur}
                ref={field.ref}
                // Checked by the schema (inline message + toast) rather than the browser's bubble on radix's hidden input.
                aria-required="true"
                aria-invalid={errors.age_confirmed ? true : undefined}
                aria-describedby={errors.age_confirmed ? 'signup-age-error' : undefined}
              />
            )}
          />
          <Label htmlFor="signup-age">I confirm I am {LIMITS.minimumAge} or older</Label>
        </div>
        {errors.age_confirmed?.message ? (
          <p id="signup-age-error" role="alert" className="text-sm font-medium text-destructive">
            {errors.age_confirmed.message}
          </p>
        ) : null}
      </div>
      <Button type="submit" className="w-full" disabled={signUp.isPending}>
        {signUp.isPending ? 'Creating account...' : 'Create Account'}
      </Button>
    </form>
  );
}
