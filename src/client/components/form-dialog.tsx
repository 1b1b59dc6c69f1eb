import type * as React from 'react';
import { Button } from '@/components/ui/button';
import {
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { isQueued } from '@/lib/api-client';

/**
 * Sends a dialog's form and closes the dialog once it is sent, or kept to send later (no signal: the send queue has it).
 * Any other failure keeps the dialog open with what was typed: `send` has toasted why, and `onError` may point the
 * person at the field to fix.
 */
export async function sendThenClose(
  send: () => Promise<unknown>,
  close: () => void,
  onError?: (err: unknown) => void,
): Promise<void> {
  try {
    await send();
  } catch (err) {
    onError?.(err);
    if (!isQueued(err)) return;
  }
  close();
}

interface FooterProps {
  busy: boolean;
  submitLabel: string;
  busyLabel: string;
  cancelLabel?: string;
  destructive?: boolean;
}

/**
 * A dialog form's last row: 'Cancel', always enabled (it closes the dialog even while the form is being sent: nobody
 * waits on a weak signal), and the submit button, which shows `busyLabel` and is disabled while it is being sent.
 */
export function FormDialogFooter({
  busy,
  submitLabel,
  busyLabel,
  cancelLabel = 'Cancel',
  destructive = false,
}: FooterProps) {
  return (
    <DialogFooter>
      <DialogClose asChild>
        <Button type="button" variant="outline">
          {cancelLabel}
        </Button>
      </DialogClose>
      <Button type="submit" variant={destructive ? 'destructive' : 'default'} disabled={busy}>
        {busy ? busyLabel : submitLabel}
      </Button>
    </DialogFooter>
  );
}

/** The inside of a dialog holding one form: its title and description, the fields, then FormDialogFooter. */
export function FormDialogContent({
  title,
  description,
  onSubmit,
  onCloseAutoFocus,
  children,
  ...footer
}: FooterProps & {
  title: string;
  description: string;
  onSubmit: (event: React.FormEvent<HTMLFormElement>) => void;
  onCloseAutoFocus?: (event: Event) => void;
  children: React.ReactNode;
}) {
  return (
    <DialogContent onCloseAutoFocus={onCloseAutoFocus}>
      <DialogHeader>
        <DialogTitle>{title}</DialogTitle>
        <DialogDescription>{description}</DialogDescription>
      </DialogHeader>
      <form noValidate className="space-y-4" onSubmit={onSubmit}>
        {children}
        <FormDialogFooter {...footer} />
      </form>
    </DialogContent>
  );
}
