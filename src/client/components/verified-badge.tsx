import { BadgeCheck } from 'lucide-react';
import { VERIFIED_BADGE, VERIFIED_BADGE_LABEL } from '@shared/verification';
import { cn } from '@/lib/utils';

/**
 * The 'Verified' badge (issue 37): email, phone and ID all checked. One image for assistive technology, named by
 * what it means; the visible word and icon are its picture.
 */
export function VerifiedBadge({ className }: { className?: string }) {
  return (
    <span
      role="img"
      aria-label={VERIFIED_BADGE_LABEL}
      title={VERIFIED_BADGE_LABEL}
      className={cn(
        'inline-flex shrink-0 items-center gap-0.5 rounded-full bg-green-50 px-1.5 py-0.5 align-middle text-xs font-medium text-green-800 ring-1 ring-green-700/30',
        className,
      )}
    >
      <BadgeCheck aria-hidden className="size-3.5" />
      {VERIFIED_BADGE}
    </span>
  );
}
