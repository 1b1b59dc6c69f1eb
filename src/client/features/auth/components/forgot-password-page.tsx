import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link, useLocation } from '@/lib/router';
import { forgotPasswordSchema, type ForgotPasswordInput } from '@shared/account';
import { PAGE_PATHS } from '@shared/routes';
import { Field, fieldAria } from '@/components/form/field';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { toastFirstError } from '@/lib/form-errors';
import { useForgotPassword } from '../api/recovery';
import { linkClass } from './link-class';

/** The e-mail typed on the Sign In tab, handed over by its 'Forgot password?' link. */
function emailFromState(state: unknown): string {
  const email = (state as { email?: unknown } | null)?.email;
  return typeof email === 'string' ? email : '';
}

/**
 * '/auth/forgot-password': asks for the e-mail and sends a link to choose a new password. The answer is the
 * server's, the same whether an account exists; the form stays usable to send again.
 */
export function ForgotPasswordPage() {
  const location = useLocation();
  const send = useForgotPassword();
  const form = useForm<ForgotPasswordInput>({
    resolver: zodResolver(forgotPasswordSchema),
    defaultValues: { email: emailFromState(location.state) },
  });
  const { errors } = form.formState;

  return (
    <div className="flex justify-center px-4 py-10">
      <Card className="w-full max-w-md space-y-4 p-6 md:p-8">
        <h1 className="text-2xl font-bold">Forgot password?</h1>
        <p className="text-muted-foreground">
          Type the email you use for RuralRoute and we will send you a link to choose a new password.
        </p>
        <form
          className="space-y-4"
          aria-label="Forgot password"
          // The shared schema gives the messages (as a 'Validation Error' toast), not the browser's bubbles.
          noValidate
          onSubmit={form.handleSubmit(
            (values) => send.mutate(values),
            (errs) => toastFirstError(errs, ['email']),
          )}
        >
          <Field id="forgot-email" label="Email" error={errors.email?.message}>
            <Input
              {...fieldAria('forgot-email', errors.email?.message)}
              type="email"
              autoComplete="email"
              aria-required="true"
              {...form.register('email')}
            />
          </Field>
          <Button type="submit" className="w-full" disabled={send.isPending}>
            {send.isPending ? 'Sending...' : 'Send reset link'}
          </Button>
        </form>
        {/* Always in the page, so a screen reader hears the answer when it arrives (again after each send). */}
        <p role="status" className="empty:hidden rounded-md border bg-muted p-3 text-sm">
          {send.data?.message ?? ''}
        </p>
        <p>
          <Link to={PAGE_PATHS.auth} className={linkClass}>
            Back to sign in
          </Link>
        </p>
      </Card>
    </div>
  );
}
