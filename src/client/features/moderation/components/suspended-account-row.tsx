import type { SuspendedAccount } from '@shared/moderation';
import { ConfirmActionButton } from '@/components/confirm-action-button';
import { formatInstant } from '@/lib/format';
import { useLiftSuspension } from '../api/admin-reports';

/** One suspended account, with 'Lift suspension' (asked first). */
export function SuspendedAccountRow({ account, onLifted }: { account: SuspendedAccount; onLifted: () => void }) {
  const lift = useLiftSuspension();
  const name = account.user.full_name;
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 rounded-lg border p-4">
      <div className="min-w-0">
        <p className="break-words font-medium">{name}</p>
        <p className="text-sm text-muted-foreground">Suspended {formatInstant(account.suspended_at)}</p>
      </div>
      <ConfirmActionButton
        variant="outline"
        label={`Lift suspension of ${name}`}
        disabled={lift.isPending}
        title={`Lift the suspension of ${name}?`}
        description={`${name} will be able to sign in again, and their rides and requests return to Browse.`}
        confirmLabel="Lift suspension"
        busyLabel="Lifting..."
        onConfirm={() => lift.mutateAsync(account.user.id)}
        onDone={onLifted}
      >
        Lift suspension
      </ConfirmActionButton>
    </div>
  );
}
