import { useRef } from 'react';
import { formatLongDate, localToday } from '@shared/dates';
import { MODERATION_TEXT } from '@shared/moderation';
import { PaginatedList } from '@/components/paginated-list';
import { SettingsSection } from '@/components/settings-section';
import { Button } from '@/components/ui/button';
import { useBlockedPeople, useUnblock, type BlockedRow } from '../api/blocks';

/** The day of a block in the reader's own calendar. */
const blockedOn = (iso: string) => `Blocked on ${formatLongDate(localToday(new Date(iso)))}`;

function BlockedPersonRow({ row, onUnblocked }: { row: BlockedRow; onUnblocked: () => void }) {
  const unblock = useUnblock();
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 rounded-md border p-4">
      <div className="min-w-0">
        <p className="break-words font-medium">{row.user.full_name}</p>
        <p className="text-sm text-muted-foreground">{blockedOn(row.created_at)}</p>
      </div>
      <Button
        variant="outline"
        aria-label={`Unblock ${row.user.full_name}`}
        disabled={unblock.isPending}
        onClick={() => unblock.mutate(row.user.id, { onSuccess: onUnblocked })}
      >
        {unblock.isPending ? 'Unblocking...' : 'Unblock'}
      </Button>
    </div>
  );
}

/** Settings, 'Blocked people': whom I blocked and since when, each with 'Unblock'. */
export function BlockedPeopleSection() {
  // The unblocked row leaves the list: focus goes to the section's heading instead of being lost.
  const headingRef = useRef<HTMLHeadingElement>(null);
  return (
    <SettingsSection
      title="Blocked people"
      description="People you blocked can't message you or offer on your requests, and you don't see each other in Browse."
      headingRef={headingRef}
    >
      <PaginatedList
        query={useBlockedPeople()}
        what="blocked people"
        empty={MODERATION_TEXT.noBlocked}
        renderItem={(row) => <BlockedPersonRow row={row} onUnblocked={() => headingRef.current?.focus()} />}
      />
    </SettingsSection>
  );
}
