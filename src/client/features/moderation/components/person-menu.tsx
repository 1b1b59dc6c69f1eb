import { Ban, Ellipsis, Flag, ShieldCheck } from 'lucide-react';
import { useRef, useState } from 'react';
import { ProfileLink } from '@/components/profile-link';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { useSession } from '@/features/auth';
import { cn } from '@/lib/utils';
import { useBlockedIds, useUnblock } from '../api/blocks';
import { BlockDialog } from './block-dialog';
import { ReportDialog } from './report-dialog';

export interface Person {
  id: string;
  full_name: string;
  /** The 'Verified' badge follows the name. */
  verified?: boolean;
  /** Community's 'Ambassador' badge follows it (issue 38). */
  ambassador?: boolean;
}

/**
 * A person's name as the link to their profile, followed (for anyone but me) by a small 'More actions for {name}'
 * menu button with 'Report' and 'Block' ('Unblock' when I blocked them). My own name, and any name while I am not
 * known to be signed in, is only the link. `bookingId` goes with a report made from a booking. Focus returns to the
 * menu button when a dialog closes.
 */
export function PersonMenu({
  person,
  bookingId,
  className,
}: {
  person: Person;
  bookingId?: string;
  className?: string;
}) {
  const me = useSession().data?.user?.id;
  const isOther = me !== undefined && me !== person.id;
  const blockedIds = useBlockedIds(isOther);
  const unblock = useUnblock();
  const [dialog, setDialog] = useState<'report' | 'block' | null>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);

  const name = (
    <ProfileLink person={person} className={cn('inline-flex min-h-11 min-w-0 items-center break-words', className)} />
  );
  if (!isOther) return name;

  const blocked = blockedIds.data?.has(person.id) ?? false;
  const returnFocus = (event: Event) => {
    event.preventDefault();
    triggerRef.current?.focus();
  };
  const setOpen = (open: boolean) => !open && setDialog(null);
  return (
    <span className="inline-flex max-w-full items-center gap-1">
      {name}
      {/* Not modal: a dialog opened from an item then owns focus and the page's pointer events cleanly. */}
      <DropdownMenu modal={false}>
        <DropdownMenuTrigger
          ref={triggerRef}
          aria-label={`More actions for ${person.full_name}`}
          className="inline-flex size-11 shrink-0 items-center justify-center rounded-md text-muted-foreground hover:bg-accent hover:text-accent-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring data-[state=open]:bg-accent"
        >
          <Ellipsis aria-hidden className="size-5" />
        </DropdownMenuTrigger>
        <DropdownMenuContent align="start">
          <DropdownMenuItem onSelect={() => setDialog('report')}>
            <Flag aria-hidden />
            Report
          </DropdownMenuItem>
          {blocked ? (
            <DropdownMenuItem disabled={unblock.isPending} onSelect={() => unblock.mutate(person.id)}>
              <ShieldCheck aria-hidden />
              Unblock
            </DropdownMenuItem>
          ) : (
            // Until the list has loaded the answer is unknown; after a failed load blocking is still safe to offer.
            <DropdownMenuItem disabled={blockedIds.isPending} onSelect={() => setDialog('block')}>
              <Ban aria-hidden />
              Block
            </DropdownMenuItem>
          )}
        </DropdownMenuContent>
      </DropdownMenu>
      <ReportDialog
        person={person}
        bookingId={bookingId}
        open={dialog === 'report'}
        onOpenChange={setOpen}
        onCloseAutoFocus={returnFocus}
      />
      <BlockDialog person={person} open={dialog === 'block'} onOpenChange={setOpen} onCloseAutoFocus={returnFocus} />
    </span>
  );
}
