import { CircleArrowUp } from 'lucide-react';
import { PLAN_TEXT } from '@shared/plans';
import { cn } from '@/lib/utils';

/** What the label means, for assistive technology and as its tooltip. */
export const PRIORITY_BADGE_LABEL = 'Priority: listed first by a Plus or Community member';

/**
 * The 'Priority' label on a Browse card (issue 38): the listing's poster is a Plus or Community member, so it is
 * listed first within its day (rides) or hour of posting (requests). Built like the 'Verified' badge: one image for
 * assistive technology, named by what it means; the visible word and icon are its picture. Blue-900 on blue-50 is
 * above 7:1 contrast.
 */
export function PriorityBadge({ className }: { className?: string }) {
  return (
    <span
      role="img"
      aria-label={PRIORITY_BADGE_LABEL}
      title={PRIORITY_BADGE_LABEL}
      className={cn(
        'inline-flex shrink-0 items-center gap-0.5 rounded-full bg-blue-50 px-1.5 py-0.5 align-middle text-xs font-medium text-blue-900 ring-1 ring-blue-700/30',
        className,
      )}
    >
      <CircleArrowUp aria-hidden className="size-3.5" />
      {PLAN_TEXT.priority}
    </span>
  );
}
