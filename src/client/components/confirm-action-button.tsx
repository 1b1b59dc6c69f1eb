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
import { Button } from '@/components/ui/button';

/**
 * A button whose action must be confirmed first ('Choose this driver', 'Withdraw offer', 'Mark as received'). The
 * dialog stays open with the busy label until the action settles, so a slow network cannot double-submit, and it
 * stays open after a failure (its toast has told the user) so they can retry or cancel.
 */
export function ConfirmActionButton({
  children,
  label,
  title,
  description,
  confirmLabel = 'Confirm',
  busyLabel,
  destructive = false,
  variant,
  disabled,
  onConfirm,
  onDone,
}: {
  /** The trigger's content (its visible text, maybe an icon). */
  children: React.ReactNode;
  /** The trigger's accessible name when its text alone is ambiguous on the page. */
  label?: string;
  title: string;
  description: string;
  confirmLabel?: string;
  busyLabel: string;
  destructive?: boolean;
  variant?: React.ComponentProps<typeof Button>['variant'];
  disabled?: boolean;
  onConfirm: () => Promise<unknown>;
  /**
   * Where focus goes after a success, instead of back to this button (which the action may have removed, e.g.
   * 'Withdraw offer' once withdrawn).
   */
  onDone?: () => void;
}) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const done = useRef(false);

  const confirm = async (event: React.MouseEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      await onConfirm();
      done.current = true;
      setOpen(false);
    } catch {
      // The mutation already told the user (toast).
    } finally {
      setBusy(false);
    }
  };

  return (
    <AlertDialog open={open} onOpenChange={(next) => !busy && setOpen(next)}>
      <AlertDialogTrigger asChild>
        <Button variant={variant} disabled={disabled} aria-label={label}>
          {children}
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent
        onCloseAutoFocus={(event) => {
          if (!done.current) return;
          done.current = false;
          if (!onDone) return;
          event.preventDefault();
          onDone();
        }}
      >
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription>{description}</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={busy}>Cancel</AlertDialogCancel>
          <AlertDialogAction variant={destructive ? 'destructive' : 'default'} disabled={busy} onClick={confirm}>
            {busy ? busyLabel : confirmLabel}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
