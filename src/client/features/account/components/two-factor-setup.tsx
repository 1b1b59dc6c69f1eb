import { useEffect, useRef } from 'react';
import { useForm } from 'react-hook-form';
import { TOTP_DIGITS, totpCodeSchema, type TwoFactorSetup } from '@shared/two-factor';
import { Button } from '@/components/ui/button';
import { ApiError } from '@/lib/api-client';
import { toastError, toastSubmitError, toastSuccess } from '@/lib/toast';
import { useEnableTwoFactor } from '../api/two-factor';
import { CodeField, zodRule } from './two-factor-code-field';

/** The key in groups of four, as authenticator apps show it and as it is easier to type. */
export function groupSecret(secret: string) {
  return (secret.match(/.{1,4}/g) ?? []).join(' ');
}

/**
 * Setting up: the QR code and the key as text for an authenticator app, in plain steps, then the app's first code
 * to prove it works. 'Turn on' answers the recovery codes; 'Cancel' leaves two-factor off.
 */
export function TwoFactorSetupStep({
  setup,
  onEnabled,
  onCancel,
}: {
  setup: TwoFactorSetup;
  onEnabled: (codes: string[]) => void;
  onCancel: () => void;
}) {
  const enable = useEnableTwoFactor();
  const form = useForm<{ code: string }>({ defaultValues: { code: '' } });
  const { errors } = form.formState;
  // 'Set up' is gone once this shows: start a screen reader at the steps' heading.
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);

  const copyKey = async () => {
    try {
      await navigator.clipboard.writeText(setup.secret);
      toastSuccess('Key copied');
    } catch {
      toastError('Error', 'Could not copy the key. Type it into the app instead.');
    }
  };

  // Sent as the schema reads it ('123 456' -> '123456'); the rule already checked it parses.
  const submit = form.handleSubmit(({ code }) =>
    enable.mutate(totpCodeSchema.parse(code), {
      onSuccess: onEnabled,
      onError: (err) => {
        if (err instanceof ApiError && (err.code === 'wrong_code' || err.code === 'code_required')) {
          form.setError('code', { message: err.message }, { shouldFocus: true });
          return;
        }
        toastSubmitError(err);
        // The set-up was replaced or finished elsewhere: start again from the card.
        if (err instanceof ApiError && err.code === 'two_factor_state') onCancel();
      },
    }),
  );

  return (
    <div className="space-y-4">
      <h3 ref={headingRef} tabIndex={-1} className="rounded-sm text-lg font-semibold focus:outline-none">
        Set up two-factor authentication
      </h3>
      <ol className="list-decimal space-y-4 pl-6">
        <li>
          Open an authenticator app on your phone, such as Google Authenticator, Microsoft Authenticator or Authy. If
          you don&apos;t have one, install one from your phone&apos;s app store.
        </li>
        <li className="space-y-3">
          <p>In the app, choose to add an account, and scan this QR code with your phone&apos;s camera.</p>
          <img
            src={setup.qr_code}
            alt="QR code for adding RuralRoute to your authenticator app"
            width={192}
            height={192}
            className="rounded-md border bg-white p-2"
          />
          <p>Can&apos;t scan it? Choose to enter a key instead, and type this key:</p>
          <div className="flex flex-wrap items-center gap-3">
            <code className="rounded-md bg-muted px-3 py-2 text-base">{groupSecret(setup.secret)}</code>
            <Button type="button" variant="outline" size="sm" onClick={() => void copyKey()}>
              Copy key
            </Button>
          </div>
        </li>
        <li>Type the {TOTP_DIGITS}-digit code the app shows for RuralRoute, then choose &lsquo;Turn on&rsquo;.</li>
      </ol>
      <form aria-label="Turn on two-factor authentication" noValidate className="space-y-4" onSubmit={submit}>
        <CodeField
          id="two-factor-setup-code"
          digits
          error={errors.code?.message}
          {...form.register('code', { validate: zodRule(totpCodeSchema) })}
        />
        <div className="flex flex-wrap gap-3">
          <Button type="submit" disabled={enable.isPending}>
            {enable.isPending ? 'Turning on...' : 'Turn on'}
          </Button>
          <Button type="button" variant="outline" disabled={enable.isPending} onClick={onCancel}>
            Cancel
          </Button>
        </div>
      </form>
    </div>
  );
}
