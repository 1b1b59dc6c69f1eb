import { useRef, useState } from 'react';
import type * as React from 'react';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '@/components/ui/alert-dialog';
import { sendThenClose } from '@/components/form-dialog';

/**
 * A confirmation (alert dialog) with 'Cancel' and the action. It stays open with the busy label until the action
 * settles, so a slow network cannot double-submit, and stays open after a failure (its toast has told the user) so
 * they can retry or cancel. 'Cancel' (and Escape) always close it, busy or not: on a weak signal nobody is kept
 * waiting in a dialog; the request goes on (it carries its idempotency key, and times out after 15 s) and its
 * outcome toasts as usual. Controlled: opened by `trigger` or from elsewhere (a menu item).
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  trigger,
  title,
  description,
  confirmLabel = 'Confirm',
  busyLabel,
  destructive = false,
  onConfirm,
  onCloseAutoFocus,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  trigger?: React.ReactNode;
  title: string;
  /** A sentence, or richer content (a short list of consequences). */
  description: React.ReactNode;
  confirmLabel?: string;
  busyLabel: string;
  destructive?: boolean;
  onConfirm: () => Promise<unknown>;
  /** Where focus goes on close; `succeeded` tells a confirmed action from a cancelled one. Default: the trigger. */
  onCloseAutoFocus?: (event: Event, succeeded: boolean) => void;
}) {
  const [busy, setBusy] = useState(false);
  const succeeded = useRef(false);
  // Set when the person closes the dialog while its action runs: the action's end then closes nothing.
  const cancelled = useRef(false);
  const changeOpen = (next: boolean) => {
    if (!next && busy) cancelled.current = true;
    onOpenChange(next);
  };

  const confirm = async (event: React.MouseEvent) => {
    event.preventDefault();
    setBusy(true);
    cancelled.current = false;
    // The mutation already told the user of a failure (toast). A change kept to send later is done as far as the
    // dialog goes.
    await sendThenClose(
      async () => {
        try {
          await onConfirm();
        } finally {
          setBusy(false);
        }
      },
      () => {
        // Closed meanwhile by Cancel: nothing to close, and focus has already gone back.
        if (cancelled.current) return;
        succeeded.current = true;
        onOpenChange(false);
      },
    );
  };

  return (
    <AlertDialog open={open} onOpenChange={changeOpen}>
      {trigger ? <AlertDialogTrigger asChild>{trigger}</AlertDialogTrigger> : null}
      <AlertDialogContent
        onCloseAutoFocus={(event) => {
          const ok = succeeded.current;
          succeeded.current = false;
          onCloseAutoFocus?.(event, ok);
        }}
      >
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          {typeof description === 'string' ? (
            <AlertDialogDescription>{description}</AlertDialogDescription>
          ) : (
            <AlertDialogDescription asChild>
              <div className="space-y-2">{description}</div>
            </AlertDialogDescription>
          )}
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction variant={destructive ? 'destructive' : 'default'} disabled={busy} onClick={confirm}>
            {busy ? busyLabel : confirmLabel}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
