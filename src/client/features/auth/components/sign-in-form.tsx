import { useState } from 'react';
import { Link } from '@/lib/router';
import type { SessionInfo } from '@shared/auth';
import { PAGE_PATHS } from '@shared/routes';
import { Field, fieldAria } from '@/components/form/field';
import { useSchemaForm } from '@/components/form/use-schema-form';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { toastApiError } from '@/lib/toast';
import { linkClass } from './link-class';

/** The schemas, the API and the cache: fetched when a field is first focused (lib/auth-engine.ts). */
const engine = () => import('../lib/auth-engine');

/**
 * 'Sign In'. `onSignedIn` gets the session: signed in (the dashboard opens) or waiting for the two-factor code; the
 * form stays busy until what it returns has settled.
 */
export function SignInForm({
  defaultEmail = '',
  onSignedIn,
}: {
  defaultEmail?: string;
  onSignedIn: (session: SessionInfo) => unknown;
}) {
  const form = useSchemaForm({
    load: () => engine().then((m) => m.signInSchema),
    order: ['email', 'password'],
    onValid: async (values) => {
      const { sendSignIn } = await engine();
      await sendSignIn(values).then(onSignedIn, (err: unknown) => toastApiError(err));
    },
  });
  const { errors } = form;
  // 'Forgot password?' takes what was typed as the e-mail along (router state: not in the address or the logs).
  const [email, setEmail] = useState(defaultEmail.trim());

  return (
    <form
      className="space-y-4"
      aria-label="Sign in"
      // Prerendered: sent before the script has arrived, the form must not put the password in the address (a GET
      // would); the server answers a POST to the page by sending it again (src/server/http/static.ts).
      // Spec: both fields required and no other client check; the schema says so in the 'Validation Error' toast,
      // not the browser's bubble (which would also refuse an e-mail without '@' before the server could answer):
      // noValidate, in formProps.
      {...form.formProps}
    >
      <Field id="signin-email" label="Email" error={errors.email}>
        <Input
          {...fieldAria('signin-email', errors.email)}
          name="email"
          type="email"
          autoComplete="email"
          aria-required="true"
          defaultValue={defaultEmail}
          onChange={(event) => setEmail(event.target.value.trim())}
        />
      </Field>
      <Field id="signin-password" label="Password" error={errors.password}>
        <Input
          {...fieldAria('signin-password', errors.password)}
          name="password"
          type="password"
          autoComplete="current-password"
          aria-required="true"
          autoFocus={!!defaultEmail}
        />
      </Field>
      <p className="text-right text-sm">
        <Link to={PAGE_PATHS.forgotPassword} state={email ? { email } : undefined} className={linkClass}>
          Forgot password?
        </Link>
      </p>
      <Button type="submit" className="w-full" disabled={form.busy}>
        {form.busy ? 'Signing in...' : 'Sign In'}
      </Button>
    </form>
  );
}
