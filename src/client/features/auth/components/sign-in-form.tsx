import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import { Link } from 'react-router';
import { signInSchema, type SignInInput } from '@shared/auth';
import { PAGE_PATHS } from '@shared/routes';
import { Field, fieldAria } from '@/components/form/field';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { toastFirstError } from '@/lib/form-errors';
import { useSignIn } from '../api/sign-in';
import { linkClass } from './link-class';

export function SignInForm({ defaultEmail = '' }: { defaultEmail?: string }) {
  const signIn = useSignIn();
  const form = useForm<SignInInput>({
    resolver: zodResolver(signInSchema),
    defaultValues: { email: defaultEmail, password: '' },
  });
  const { errors } = form.formState;
  // 'Forgot password?' takes what was typed as the e-mail along (router state: not in the address or the logs).
  const email = useWatch({ control: form.control, name: 'email' }).trim();

  return (
    <form
      className="space-y-4"
      aria-label="Sign in"
      // Prerendered: sent before the script has arrived, the form must not put the password in the address (a GET
      // would); the server answers a POST to the page by sending it again (src/server/http/static.ts).
      method="post"
      // Spec: both fields required and no other client check; the schema says so in the 'Validation Error' toast,
      // not the browser's bubble (which would also refuse an e-mail without '@' before the server could answer).
      noValidate
      onSubmit={form.handleSubmit(
        (values) => signIn.mutate(values),
        (errs) => toastFirstError(errs, ['email', 'password']),
      )}
    >
      <Field id="signin-email" label="Email" error={errors.email?.message}>
        <Input
          {...fieldAria('signin-email', errors.email?.message)}
          type="email"
          autoComplete="email"
          aria-required="true"
          {...form.register('email')}
        />
      </Field>
      <Field id="signin-password" label="Password" error={errors.password?.message}>
        <Input
          {...fieldAria('signin-password', errors.password?.message)}
          type="password"
          autoComplete="current-password"
          aria-required="true"
          autoFocus={!!defaultEmail}
          {...form.register('password')}
        />
      </Field>
      <p className="text-right text-sm">
        <Link to={PAGE_PATHS.forgotPassword} state={email ? { email } : undefined} className={linkClass}>
          Forgot password?
        </Link>
      </p>
      <Button type="submit" className="w-full" disabled={signIn.isPending}>
        {signIn.isPending ? 'Signing in...' : 'Sign In'}
      </Button>
    </form>
  );
}
