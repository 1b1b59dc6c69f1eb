import { Sparkles } from 'lucide-react';
import { AMBASSADOR_BADGE, AMBASSADOR_BADGE_LABEL } from '@shared/plans';
import { cn } from '@/lib/utils';

/** Community's 'Ambassador' badge (issue 38), beside the 'Verified' one: one image, named by what it means. */
export function AmbassadorBadge({ className }: { className?: string }) {
  return (
    <span
      role="img"
      aria-label={AMBASSADOR_BADGE_LABEL}
      title={AMBASSADOR_BADGE_LABEL}
      className={cn(
        'inline-flex shrink-0 items-center gap-0.5 rounded-full bg-violet-50 px-1.5 py-0.5 align-middle text-xs font-medium text-violet-900 ring-1 ring-violet-700/30',
        className,
      )}
    >
      <Sparkles aria-hidden className="size-3.5" />
      {AMBASSADOR_BADGE}
    </span>
  );
}
