import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { anyCodeSchema } from '@shared/two-factor';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog';
import { ApiError } from '@/lib/api-client';
import { toastSubmitError } from '@/lib/toast';
import { RecheckCancelled } from '../api/security';
import { useDisableTwoFactor } from '../api/two-factor';
import { CodeField, zodRule } from './two-factor-code-field';

/**
 * 'Turn off': a dialog asking for a current code (from the app, or a recovery code), behind the re-check. It stays
 * open on a wrong code or a cancelled re-check; after a success focus goes where `onDone` says (the button is gone).
 */
export function TurnOffTwoFactor({ onDone }: { onDone: () => void }) {
  const [open, setOpen] = useState(false);
  const disable = useDisableTwoFactor();
  const form = useForm<{ code: string }>({ defaultValues: { code: '' } });
  const { errors } = form.formState;
  const busy = disable.isPending;
  // Set with the close that follows a success: focus then goes to `onDone`, not the 'Turn off' button (gone).
  const [succeeded, setSucceeded] = useState(false);

  const changeOpen = (next: boolean) => {
    setOpen(next);
    if (!next) form.reset();
  };

  const submit = form.handleSubmit(({ code }) =>
    disable.mutate(anyCodeSchema.parse(code), {
      onSuccess: () => {
        setSucceeded(true);
        setOpen(false);
        form.reset();
      },
      onError: (err) => {
        if (err instanceof RecheckCancelled) return;
        if (err instanceof ApiError && (err.code === 'wrong_code' || err.code === 'code_required')) {
          form.setError('code', { message: err.message }, { shouldFocus: true });
          return;
        }
        toastSubmitError(err);
      },
    }),
  );

  return (
    <Dialog open={open} onOpenChange={changeOpen}>
      <DialogTrigger asChild>
        <Button variant="outline">Turn off</Button>
      </DialogTrigger>
      <DialogContent
        onCloseAutoFocus={(event) => {
          if (!succeeded) return;
          setSucceeded(false);
          event.preventDefault();
          onDone();
        }}
      >
        <DialogHeader>
          <DialogTitle>Turn off two-factor authentication?</DialogTitle>
          <DialogDescription>
            You will sign in with your password only, and your recovery codes stop working. To confirm, enter a code.
          </DialogDescription>
        </DialogHeader>
        <form aria-label="Turn off two-factor authentication" noValidate className="space-y-4" onSubmit={submit}>
          <CodeField
            id="two-factor-off-code"
            error={errors.code?.message}
            autoFocus
            {...form.register('code', { validate: zodRule(anyCodeSchema) })}
          />
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => changeOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" variant="destructive" disabled={busy}>
              {busy ? 'Turning off...' : 'Turn off'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
