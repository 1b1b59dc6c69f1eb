import { useState } from 'react';
import type * as React from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';

/**
 * A button whose action must be confirmed first ('Choose this driver', 'Withdraw offer', 'Mark as received',
 * 'Suspend account'); see ConfirmDialog for how the dialog behaves while the action runs and after it fails.
 */
export function ConfirmActionButton({
  children,
  label,
  variant,
  disabled,
  onDone,
  ...dialog
}: Omit<React.ComponentProps<typeof ConfirmDialog>, 'open' | 'onOpenChange' | 'trigger' | 'onCloseAutoFocus'> & {
  /** The trigger's content (its visible text, maybe an icon). */
  children: React.ReactNode;
  /** The trigger's accessible name when its text alone is ambiguous on the page. */
  label?: string;
  variant?: React.ComponentProps<typeof Button>['variant'];
  disabled?: boolean;
  /**
   * Where focus goes after a success, instead of back to this button (which the action may have removed, e.g.
   * 'Withdraw offer' once withdrawn).
   */
  onDone?: () => void;
}) {
  const [open, setOpen] = useState(false);
  return (
    <ConfirmDialog
      {...dialog}
      open={open}
      onOpenChange={setOpen}
      trigger={
        <Button variant={variant} disabled={disabled} aria-label={label}>
          {children}
        </Button>
      }
      onCloseAutoFocus={(event, succeeded) => {
        if (!succeeded || !onDone) return;
        event.preventDefault();
        onDone();
      }}
    />
  );
}
