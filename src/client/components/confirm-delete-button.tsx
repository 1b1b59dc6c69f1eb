import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';

/**
 * The delete icon button of a card, guarded by a confirmation dialog (the prototype deleted at once); see
 * ConfirmDialog for the busy label and what happens after a failure.
 */
export function ConfirmDeleteButton({
  label,
  title,
  description,
  onConfirm,
}: {
  /** Accessible name of the icon button, e.g. 'Delete ride Oakville → Millbrook'. */
  label: string;
  title: string;
  description: string;
  onConfirm: () => Promise<unknown>;
}) {
  const [open, setOpen] = useState(false);
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={setOpen}
      trigger={
        <Button variant="ghost" size="icon" aria-label={label} title={label}>
          <Trash2 aria-hidden className="text-destructive" />
        </Button>
      }
      title={title}
      description={description}
      confirmLabel="Delete"
      busyLabel="Deleting..."
      onConfirm={onConfirm}
    />
  );
}
