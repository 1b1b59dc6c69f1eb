import { useCallback, useMemo, useRef, useState } from 'react';
import type * as React from 'react';
import { useForm } from 'react-hook-form';
import { anyCodeSchema, CONFIRM_IDENTITY_TITLE, REAUTH_REQUIRED } from '@shared/two-factor';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { confirmIdentity, isReauthRequired, RecentCheckContext, RecheckCancelled } from '../api/security';
import { useTwoFactorStatus } from '../api/two-factor';
import { PasswordAndCodeFields, showIdentityError, type PasswordAndCode } from './password-and-code';

interface Waiter {
  resolve: () => void;
  reject: (err: Error) => void;
}

/**
 * 'Confirm it's you': the password, and an 'Authentication code' when two-factor is on (the status says so, or the
 * server answered `code_required`). Checked answers resolve every action waiting for the check.
 */
function ConfirmIdentityDialog({
  open,
  onDone,
  onCancel,
  onCloseAutoFocus,
}: {
  open: boolean;
  onDone: () => void;
  onCancel: () => void;
  onCloseAutoFocus: (event: Event) => void;
}) {
  const status = useTwoFactorStatus({ enabled: open });
  const [codeAsked, setCodeAsked] = useState(false);
  const needCode = codeAsked || status.data?.enabled === true;
  // The code field unregisters when hidden, so its rule only applies while it is shown.
  const form = useForm<PasswordAndCode>({ defaultValues: { password: '', code: '' }, shouldUnregister: true });
  const { isSubmitting } = form.formState;

  const close = (then: () => void) => {
    form.reset();
    setCodeAsked(false);
    then();
  };

  const submit = form.handleSubmit(async ({ password, code }) => {
    try {
      await confirmIdentity(needCode ? { password, code: anyCodeSchema.parse(code) } : { password });
    } catch (err) {
      showIdentityError(err, form, () => setCodeAsked(true));
      return;
    }
    close(onDone);
  });

  return (
    <Dialog open={open} onOpenChange={(next) => !next && close(onCancel)}>
      <DialogContent aria-describedby="confirm-identity-description" onCloseAutoFocus={onCloseAutoFocus}>
        <DialogHeader>
          <DialogTitle>{CONFIRM_IDENTITY_TITLE}</DialogTitle>
          <DialogDescription id="confirm-identity-description">
            {REAUTH_REQUIRED} Enter your password{needCode ? ' and a code from your authenticator app' : ''}.
          </DialogDescription>
        </DialogHeader>
        <form aria-label={CONFIRM_IDENTITY_TITLE} noValidate className="space-y-4" onSubmit={submit}>
          <PasswordAndCodeFields
            form={form}
            idPrefix="confirm-identity"
            needCode={needCode}
            codeAsked={codeAsked}
            autoFocus
          />
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => close(onCancel)}>
              Cancel
            </Button>
            <Button type="submit" disabled={isSubmitting}>
              {isSubmitting ? 'Checking...' : 'Continue'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/**
 * Gives the cards inside it `withRecentCheck` (useRecentCheck): an action the server refuses with
 * `reauth_required` waits for 'Confirm it's you' and then runs again; Cancel rejects it with RecheckCancelled.
 */
export function ConfirmIdentityProvider({ children }: { children: React.ReactNode }) {
  const waiters = useRef<Waiter[]>([]);
  // The dialog has no trigger of its own: focus goes back to what had it (the card's button) when it closes.
  const returnFocus = useRef<HTMLElement | null>(null);
  const [open, setOpen] = useState(false);

  const settle = (how: (waiter: Waiter) => void) => {
    const waiting = waiters.current;
    waiters.current = [];
    setOpen(false);
    waiting.forEach(how);
  };

  const withRecentCheck = useCallback(async <T,>(action: () => Promise<T>): Promise<T> => {
    try {
      return await action();
    } catch (err) {
      if (!isReauthRequired(err)) throw err;
    }
    await new Promise<void>((resolve, reject) => {
      waiters.current.push({ resolve, reject });
      if (document.activeElement instanceof HTMLElement) returnFocus.current ??= document.activeElement;
      setOpen(true);
    });
    return action();
  }, []);
  const value = useMemo(() => ({ withRecentCheck }), [withRecentCheck]);

  return (
    <RecentCheckContext.Provider value={value}>
      {children}
      <ConfirmIdentityDialog
        open={open}
        onDone={() => settle((w) => w.resolve())}
        onCancel={() => settle((w) => w.reject(new RecheckCancelled()))}
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          returnFocus.current?.focus();
          returnFocus.current = null;
        }}
      />
    </RecentCheckContext.Provider>
  );
}
