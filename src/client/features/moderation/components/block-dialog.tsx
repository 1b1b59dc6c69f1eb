import { ConfirmDialog } from '@/components/confirm-dialog';
import { useBlock } from '../api/blocks';

/** 'Block {name}?': what a block does, in plain words, before it happens. */
export function BlockDialog({
  person,
  open,
  onOpenChange,
  onCloseAutoFocus,
}: {
  person: { id: string; full_name: string };
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCloseAutoFocus: (event: Event) => void;
}) {
  const block = useBlock();
  const name = person.full_name;
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Block ${name}?`}
      description={
        <>
          <p>If you block {name}:</p>
          <ul className="list-disc space-y-1 pl-5">
            <li>They can&apos;t message you or offer to carry your requests.</li>
            <li>You won&apos;t see each other&apos;s rides and requests in Browse.</li>
            <li>Any offer still waiting between you is declined.</li>
            <li>A confirmed booking between you stays until it is cancelled or completed.</li>
          </ul>
          <p>You can unblock them later in Settings.</p>
        </>
      }
      confirmLabel="Block"
      busyLabel="Blocking..."
      destructive
      onConfirm={() => block.mutateAsync(person.id)}
      onCloseAutoFocus={onCloseAutoFocus}
    />
  );
}
