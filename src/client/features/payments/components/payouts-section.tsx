import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import type * as React from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { PAYOUT_STATE_LABELS, payoutBankSchema, TEST_BANK } from '@shared/payments';
import { Field, fieldAria } from '@/components/form/field';
import { FormDialogContent, sendThenClose } from '@/components/form-dialog';
import { SettingsSection } from '@/components/settings-section';
import { Button } from '@/components/ui/button';
import { Dialog, DialogTrigger } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { messageOf, toastFirstError } from '@/lib/form-errors';
import { usePayoutSettings, useSetUpPayouts } from '../api/payments';
import { TestModeNotice } from '@/components/test-mode-notice';

type BankForm = z.input<typeof payoutBankSchema>;
const EMPTY: BankForm = { routing_number: '', account_number: '' };
const FIELDS = ['routing_number', 'account_number'] as const;

/** The test provider's bank form: a test routing and account number. */
function BankDialog({ label }: { label: string }) {
  const [open, setOpen] = useState(false);
  const setUp = useSetUpPayouts();
  const form = useForm<BankForm, unknown, z.output<typeof payoutBankSchema>>({
    resolver: zodResolver(payoutBankSchema),
    defaultValues: EMPTY,
  });
  const submit = (event: React.FormEvent<HTMLFormElement>) =>
    form.handleSubmit(
      (bank) =>
        sendThenClose(
          () => setUp.mutateAsync(bank),
          () => {
            form.reset(EMPTY);
            setOpen(false);
          },
        ),
      (errors) => toastFirstError(errors, [...FIELDS]),
    )(event);
  const field = (name: (typeof FIELDS)[number], text: string, props: React.ComponentProps<typeof Input>) => {
    const id = `payouts-${name}`;
    const error = messageOf(form.formState.errors, name);
    return (
      <Field id={id} label={text} error={error}>
        <Input {...fieldAria(id, error)} aria-required inputMode="numeric" {...props} {...form.register(name)} />
      </Field>
    );
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) form.reset(EMPTY);
        setOpen(next);
      }}
    >
      <DialogTrigger asChild>
        <Button>{label}</Button>
      </DialogTrigger>
      <FormDialogContent
        title="Set up payouts"
        description="Where RuralRoute pays what you earn."
        onSubmit={submit}
        busy={form.formState.isSubmitting}
        submitLabel="Save bank account"
        busyLabel="Saving..."
      >
        <TestModeNotice
          show
          extra={`Use the routing number ${TEST_BANK.routingNumber} and the account number ${TEST_BANK.accountNumber}.`}
        />
        {field('routing_number', 'Routing number', { autoComplete: 'off' })}
        {field('account_number', 'Account number', { autoComplete: 'off' })}
      </FormDialogContent>
    </Dialog>
  );
}

/**
 * Settings, 'Payouts': whether RuralRoute can pay what I earn ('Not set up' / 'Payouts active'). Released money
 * waits as 'Available' until then; drivers can deliver before. With Stripe, 'Set up payouts' goes to Stripe's own
 * pages and comes back here.
 */
export function PayoutsSection() {
  const settings = usePayoutSettings();
  const setUp = useSetUpPayouts();
  const s = settings.data;
  const label = s?.state === 'active' ? 'Change bank account' : 'Set up payouts';
  return (
    <SettingsSection title="Payouts" description="Where the money you earn by delivering is paid.">
      <div id="payouts" className="space-y-3">
        {s ? (
          <>
            <p>
              <span className="font-medium">{PAYOUT_STATE_LABELS[s.state]}</span>
              {s.state === 'active' && s.last4 ? ` · to the bank account ending in ${s.last4}` : ''}
            </p>
            {s.state === 'not_set_up' ? (
              <p className="text-sm text-muted-foreground">
                What you earn waits as Available until payouts are set up. You can deliver before you set them up.
              </p>
            ) : null}
            {s.provider === 'test' ? (
              <BankDialog label={label} />
            ) : (
              <Button disabled={setUp.isPending} onClick={() => setUp.mutate({})}>
                {s.state === 'pending' ? 'Finish setting up payouts' : label}
              </Button>
            )}
          </>
        ) : settings.isError ? (
          <p role="alert">We couldn&apos;t load your payout settings.</p>
        ) : (
          <p role="status">Loading your payout settings...</p>
        )}
      </div>
    </SettingsSection>
  );
}
